import Blitter
import RemoteControl
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

    /// What every transport submits goes through the same checks: the action, its index against
    /// the photos published, and whether the kiosk can take it now.
    @Test func submittedActionsAreCheckedAgainstThePublishedKiosk() {
        let state = RemoteState(version: "1", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.photoCount = 4
        snapshot.state = .waitingForDisplay
        state.publish(snapshot)
        let next = state.submit(json: Array(#"{"action": "next"}"#.utf8))
        #expect(next == .failure(RemoteRequestError(status: 503,
            message: "not taken: next has nothing to act on while the kiosk waits for a display")))
        #expect(state.submit(json: Array(#"{"action": "reload"}"#.utf8)) == .success(.reload))
        snapshot.state = .showing
        state.publish(snapshot)
        #expect(state.submit(json: Array(#"{"action": "open", "index": 3}"#.utf8)) == .success(.open(3)))
        #expect((try? state.submit(json: Array(#"{"action": "open", "index": 4}"#.utf8)).get()) == nil)
        #expect(state.takeActions() == [.reload, .open(3)])
        for _ in 0..<RemoteState.queueLimit { _ = state.enqueue(.next) }
        #expect(state.submit(json: Array(#"{"action": "next"}"#.utf8))
            == .failure(RemoteRequestError(status: 503, message: "32 actions are waiting already")))
    }
}
