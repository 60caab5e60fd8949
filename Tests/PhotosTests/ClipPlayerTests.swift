import Blitter
import Clips
import Foundation
@testable import Photos
import RunLoopRules
import Testing
import TestSupport

@Suite struct ClipPlayerTests {
    func player(_ source: FakeClipSource, loops: Bool = false, slots: Int = 4,
                onExit: @escaping @Sendable () -> Void = {}) -> ClipPlayer {
        ClipPlayer(path: "/clips/fake.mp4", clip: source.info, frameSize: ImageSize(width: 160, height: 90), slots: slots,
                   loops: loops, makeSource: { _ in (source, "fake (software)") }, onFrame: {}, onExit: onExit)
    }

    @Test func eachSampleShowsTheFrameDueAtItsTimeAtTheScreensSize() throws {
        let source = FakeClipSource(count: 30, fps: 30)
        let player = player(source)
        defer { player.stop() }
        var shown: [Int] = []
        for n in 0..<40 {
            let sample = player.sample(at: 5 + Double(n) / 60, wait: true)
            let frame = try #require(sample.frame)
            #expect(frame.image.image[0, 0] == FakeClipSource.colour(frame.index))
            #expect(sample.changed == (n % 2 == 0))
            #expect(abs(sample.clipTime! - Double(n) / 60) < 1e-9)
            shown.append(frame.index)
        }
        #expect(shown == (0..<40).map { $0 / 2 })
        #expect(source.requests.allSatisfy { $0 == ImageSize(width: 160, height: 90) })
        #expect(player.decoderName == "fake (software)")
    }

    @Test func theRingIsBoundedAndTheWorkerWaitsForRoom() throws {
        let source = FakeClipSource(count: 300, fps: 30)
        let player = player(source, slots: 4)
        defer { player.stop() }
        _ = player.sample(at: 0, wait: true)
        Thread.sleep(forTimeInterval: 0.2)
        // One on screen, three ahead: the worker read no more.
        #expect(source.framesRead == 4)
        _ = player.sample(at: 1.0 / 30, wait: true)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(source.framesRead == 5)
    }

    @Test func theFrameLoopNeverWaitsForTheDecoder() {
        let source = FakeClipSource(count: 30, fps: 30, gated: true)
        let player = player(source)
        defer { player.stop() }
        let start = Date()
        let sample = player.sample(at: 0)
        #expect(Date().timeIntervalSince(start) < 0.05)
        // Nothing decoded yet: the poster shows, and nothing is due until a frame arrives.
        #expect(sample.frame == nil && sample.clipTime == nil)
        #expect(player.nextChange == nil)
        source.open()
        while player.nextChange == nil { Thread.sleep(forTimeInterval: 0.005) }
        // The first frame decoded is due at once; the clock starts when it is shown.
        #expect(player.nextChange == -.infinity)
        #expect(player.sample(at: 3).frame?.index == 0)
        while player.nextChange == nil { Thread.sleep(forTimeInterval: 0.005) }
        #expect(abs(player.nextChange! - (3 + 1.0 / 30)) < 1e-5)
    }

    @Test func aLoopRewindsAndStartsAgainFromItsFirstFrame() throws {
        let source = FakeClipSource(count: 10, fps: 30)
        let player = player(source, loops: true)
        defer { player.stop() }
        var shown: [Int] = []
        for n in 0..<50 {
            shown.append(try #require(player.sample(at: Double(n) / 60, wait: true).frame).index)
        }
        #expect(shown == (0..<50).map { ($0 / 2) % 10 })
        #expect(source.rewinds >= 2)
        #expect(abs(player.sample(at: 49.0 / 60, wait: true).clipTime! - (49.0 / 60 - 2 * 10.0 / 30)) < 1e-9)
    }

    @Test func withoutALoopTheLastFrameStaysAndTheClipFinishes() throws {
        let source = FakeClipSource(count: 6, fps: 30)
        let player = player(source)
        defer { player.stop() }
        for n in 0..<12 { _ = player.sample(at: Double(n) / 60, wait: true) }
        let last = player.sample(at: 11.0 / 60, wait: true)
        #expect(last.frame?.index == 5 && !last.finished)
        // Its last frame's time is over at 6/30 s: a Live Photo's still returns then.
        #expect(abs(player.nextChange! - 0.2) < 1e-5)
        let end = player.sample(at: 0.2, wait: true)
        #expect(end.finished && end.frame?.index == 5)
        #expect(player.nextChange == nil)
        #expect(source.rewinds == 0)
    }

    @Test func aSourceThatFailsMidClipIsReportedAndNothingHangs() throws {
        let source = FakeClipSource(count: 30, fps: 30, failAt: 5)
        let player = player(source)
        defer { player.stop() }
        var failure: String?
        for n in 0..<30 where failure == nil {
            failure = player.sample(at: Double(n) / 60, wait: true).failure
        }
        #expect(failure == "corrupt packet")
        #expect(player.waitForWorker())
        // The loop sees it at once, not at the next frame that would have been due.
        #expect(player.nextChange == -.infinity)
    }

    @Test func aSourceThatCannotOpenIsReported() {
        let player = ClipPlayer(path: "/clips/missing.mp4", clip: FakeClipSource(count: 1, fps: 30).info,
                                frameSize: ImageSize(width: 16, height: 9), loops: true,
                                makeSource: { _ in throw FakeClipSource.Broken() }, onFrame: {})
        #expect(player.sample(at: 0, wait: true).failure == "corrupt packet")
    }

    @Test func stopLetsTheWorkerGoAndItsBytesFree() {
        let cache = ImageCache(byteLimit: 10 << 20)
        let perFrame = ClipPlayer.bytesPerFrame(ImageSize(width: 160, height: 90))
        #expect(perFrame > 160 * 90 * 4 && perFrame < 160 * 90 * 4 * 4 / 3 + 64)
        let held = cache.holdFrames(bytesPerFrame: perFrame, most: 4, least: 2, rankedAs: ImageKey(path: "c", size: ImageSize(width: 1, height: 1)))
        #expect(held.frames == 4 && held.grownTo == nil)
        #expect(cache.heldByteCount == 4 * perFrame)
        let source = FakeClipSource(count: 1000, fps: 30, gated: true)
        let player = player(source, loops: true, onExit: { cache.releaseFrames(4 * perFrame) })
        player.stop()
        source.open()  // the worker was inside nextFrame: it finishes that one and goes
        #expect(player.waitForWorker())
        #expect(cache.heldByteCount == 0)
        #expect(source.framesRead <= 1)
    }
}

/// A playing clip's ring counts against the cache's limit, ranked as the page on screen.
@Suite struct ImageCacheClipFramesTests {
    private func key(_ name: String) -> ImageKey { ImageKey(path: name, size: ImageSize(width: 10, height: 10)) }
    private let entry = MipChain.single(Bitmap(width: 10, height: 10))  // 400 bytes

    @Test func theRingEvictsTheNeighboursFirstAndShrinksBeforeTheCacheGrows() {
        let cache = ImageCache(byteLimit: 2000)
        for name in ["page", "next", "previous", "cell"] { cache.insert(entry, for: key(name)) }
        cache.prioritize([key("page"), key("next"), key("previous"), key("cell")])
        // 4 frames of 300 bytes: 1200, of which 400 are free; the cell and a neighbour go.
        let four = cache.holdFrames(bytesPerFrame: 300, most: 4, least: 2, rankedAs: key("page"))
        #expect(four.frames == 4 && four.grownTo == nil)
        #expect(cache.keys == [key("page"), key("next")])
        #expect(cache.heldByteCount == 1200)
        // A decode now only fits by what is less urgent than it.
        guard case .refused = cache.reserve(800, for: key("cell")) else {
            Issue.record("the ring's bytes were not counted")
            return
        }
        cache.releaseFrames(1200)
        // With little room, the ring takes fewer frames, never fewer than `least`, and never the
        // page on screen: when even that is too much, the cache grows for it.
        let small = ImageCache(byteLimit: 1000)
        small.insert(entry, for: key("page"))
        small.prioritize([key("page")])
        let two = small.holdFrames(bytesPerFrame: 500, most: 4, least: 2, rankedAs: key("page"))
        #expect(two.frames == 2 && two.grownTo == 1400)
        #expect(small.keys == [key("page")])
        #expect(small.byteLimit == 1400)
    }
}

@Suite struct ClipPlayerLevelsTests {
    @Test func framesGetTheirLevelsOnlyWhileWantedAndTheOneOnScreenIsRelevelled() throws {
        let source = FakeClipSource(count: 300, fps: 30)
        let player = ClipPlayer(path: "/clips/fake.mp4", clip: source.info, frameSize: ImageSize(width: 160, height: 90),
                                loops: false, makeSource: { _ in (source, nil) }, onFrame: {})
        defer { player.stop() }
        let first = player.sample(at: 0, wait: true)
        #expect(first.frame?.image.levels.count == 1)
        // The worker fills the ring and sleeps (the case a wake-up was once missing from).
        let waited = Date().addingTimeInterval(60)
        while player.bufferedFrameCount < player.slots, Date() < waited { Thread.sleep(forTimeInterval: 0.005) }
        #expect(player.bufferedFrameCount == player.slots)
        // A transition starts to shrink it: the frames decoded, the one on screen too, get levels.
        player.setLevelsWanted(true)
        // A bound for a loaded machine only: the relevelling takes milliseconds.
        let deadline = Date().addingTimeInterval(60)
        while player.nextChange != -.infinity, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let relevelled = player.sample(at: 0.01, wait: true)
        #expect(relevelled.relevelled && !relevelled.changed)
        #expect(relevelled.frame?.index == 0 && (relevelled.frame?.image.levels.count ?? 0) > 1)
        let next = player.sample(at: 1.0 / 30, wait: true)
        #expect(next.changed && next.frame?.index == 1 && (next.frame?.image.levels.count ?? 0) > 1)
    }
}
