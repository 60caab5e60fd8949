import Blitter
import Remote
import Synchronization
import Testing

@Suite struct RemoteStateTests {
    final class Counter: @unchecked Sendable {
        let value = Atomic<Int>(0)
    }

    @Test func actionsQueueInOrderAndWakeTheLoop() {
        let wakes = Counter()
        let state = RemoteState(version: "1", wake: { wakes.value.add(1, ordering: .relaxed) })
        #expect(state.enqueue(.next))
        #expect(state.enqueue(.open(2)))
        #expect(wakes.value.load(ordering: .relaxed) == 2)
        #expect(state.takeActions() == [.next, .open(2)])
        #expect(state.takeActions() == [])
    }

    @Test func aFullQueueRefusesMore() {
        let state = RemoteState(version: "1", wake: {})
        for _ in 0..<RemoteState.queueLimit { #expect(state.enqueue(.next)) }
        #expect(!state.enqueue(.previous))
        #expect(state.takeActions().count == RemoteState.queueLimit)
        #expect(state.enqueue(.previous))
    }

    @Test func theServerReadsWhatTheLoopPublished() {
        let state = RemoteState(version: "1", wake: {})
        var snapshot = state.currentSnapshot()
        #expect(snapshot.version == "1" && snapshot.framesDrawn == 0)
        snapshot.framesDrawn = 7
        state.publish(snapshot)
        #expect(state.currentSnapshot().framesDrawn == 7)
    }

    @Test func aScreenshotIsTheFrameTheLoopHandsOver() async {
        let state = RemoteState(version: "1", wake: {})
        let loop = Task {
            // The loop's side: answers once a request is waiting.
            while !state.wantsScreenshot { await Task.yield() }
            state.answerScreenshots(with: Bitmap(width: 2, height: 1, color: 0xFF_00_00))
        }
        let frame = await state.screenshot(timeout: 60)
        await loop.value
        #expect(frame?.width == 2 && frame?.pixels == [0xFF_00_00, 0xFF_00_00])
        #expect(!state.wantsScreenshot)
    }

    @Test func aLoopThatDoesNotAnswerGivesNoScreenshot() async {
        let state = RemoteState(version: "1", wake: {})
        #expect(await state.screenshot(timeout: 0.01) == nil)
        #expect(!state.wantsScreenshot)
    }
}
