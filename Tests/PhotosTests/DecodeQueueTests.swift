import Blitter
import Foundation
import Geometry
@testable import Photos
import TestSupport
import Testing

/// Records what a fake decoder was asked for, and lets a test hold the single worker.
private final class FakeDecoder: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [ImageKey] = []
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let completions = DispatchSemaphore(value: 0)
    var holdKey: ImageKey?
    var failingPath: String?

    var decoded: [ImageKey] { lock.withLock { calls } }

    func decode(_ key: ImageKey) throws -> (bitmap: Bitmap, warning: String?, notice: String?) {
        lock.withLock { calls.append(key) }
        if key == holdKey {
            started.signal()
            gate.wait()
        }
        if key.path == failingPath { throw PhotoError(path: key.path, reason: .noImageData) }
        return (Bitmap(width: key.size.width, height: key.size.height), nil, nil)
    }

    func makeQueue(cache: ImageCache, log: LogRecorder = LogRecorder()) -> DecodeQueue {
        DecodeQueue(cache: cache, workers: 1, logger: log.logger, makeDecoder: { { try self.decode($0) } },
                    completion: { _, _ in self.completions.signal() })
    }

    /// Waits for `count` completions; the timeout only guards against a hang.
    func waitForCompletions(_ count: Int) -> Bool {
        (0..<count).allSatisfy { _ in completions.wait(timeout: .now() + 60) == .success }
    }
}

private func key(_ name: String, _ side: Int = 10) -> ImageKey {
    ImageKey(path: name, size: ImageSize(width: side, height: side))
}

@Suite struct DecodeQueueTests {
    @Test func theOrderOfTheListIsThePriority() throws {
        let fake = FakeDecoder()
        fake.holdKey = key("busy")
        let queue = fake.makeQueue(cache: ImageCache(byteLimit: 1 << 20))
        defer { queue.stop() }

        queue.want([key("busy")])
        fake.started.wait()  // the only worker is now held inside "busy"
        queue.want([key("current"), key("visible-1"), key("current"), key("visible-2"), key("prefetch")])
        #expect(queue.pending == [key("current"), key("visible-1"), key("visible-2"), key("prefetch")])
        fake.gate.signal()

        #expect(fake.waitForCompletions(5))
        #expect(fake.decoded == [key("busy"), key("current"), key("visible-1"), key("visible-2"), key("prefetch")])
    }

    @Test func aNewListDropsStalePendingKeys() throws {
        let fake = FakeDecoder()
        fake.holdKey = key("busy")
        let cache = ImageCache(byteLimit: 1 << 20)
        let queue = fake.makeQueue(cache: cache)
        defer { queue.stop() }

        queue.want([key("busy")])
        fake.started.wait()
        queue.want([key("old-1"), key("old-2"), key("kept")])
        queue.want([key("new"), key("kept")])
        #expect(queue.pending == [key("new"), key("kept")])
        fake.gate.signal()

        #expect(fake.waitForCompletions(3))
        // "busy" was under way when the list left it out: it finished.
        #expect(fake.decoded == [key("busy"), key("new"), key("kept")])
        #expect(cache.keys == [key("busy"), key("new"), key("kept")])
        // Cached now: asking again decodes nothing.
        queue.want([key("kept"), key("new")])
        #expect(queue.pendingCount == 0)
    }

    @Test func aFailedFileIsNotRetried() throws {
        let fake = FakeDecoder()
        fake.failingPath = "bad"
        let log = LogRecorder()
        let queue = fake.makeQueue(cache: ImageCache(byteLimit: 1 << 20), log: log)
        defer { queue.stop() }

        queue.want([key("bad")])
        #expect(fake.waitForCompletions(1))
        #expect(queue.failure(for: "bad")?.reason == .noImageData)
        queue.want([key("bad"), key("bad", 20)])  // and another size of the same file
        #expect(queue.pendingCount == 0)
        #expect(fake.decoded == [key("bad")])
        #expect(log.messages.filter { $0.level == .warning }.count == 1)

        // Until the file changes on disk.
        queue.forget(path: "bad")
        queue.want([key("bad")])
        #expect(fake.waitForCompletions(1))
        #expect(fake.decoded == [key("bad"), key("bad")])
    }

    @Test func thePendingQueueIsBounded() throws {
        let fake = FakeDecoder()
        fake.holdKey = key("busy")
        let queue = DecodeQueue(cache: ImageCache(byteLimit: 1 << 20), workers: 1, capacity: 3, logger: LogRecorder().logger,
                                makeDecoder: { { try fake.decode($0) } }, completion: { _, _ in fake.completions.signal() })
        defer { queue.stop() }
        queue.want([key("busy")])
        fake.started.wait()
        queue.want([key("a"), key("b"), key("c"), key("d")])
        #expect(queue.pending == [key("a"), key("b"), key("c")])  // the least wanted, "d", was left out
        fake.gate.signal()
        #expect(fake.waitForCompletions(4))
    }

    @Test func theWorkerHandsBackEntriesWithTheirLevels() throws {
        let fake = FakeDecoder()
        let cache = ImageCache(byteLimit: 1 << 20)
        let results = NSLock()
        nonisolated(unsafe) var entries: [ImageKey: MipChain] = [:]
        let queue = DecodeQueue(cache: cache, workers: 1, logger: LogRecorder().logger, makeDecoder: { { try fake.decode($0) } },
                                completion: { key, result in
                                    results.withLock { entries[key] = try? result.get() }
                                    fake.completions.signal()
                                })
        defer { queue.stop() }
        let screen = ImageKey(path: "photo", size: ImageSize(width: 64, height: 48))
        let thumbnail = ImageKey(path: "photo", size: ImageSize(width: 16, height: 12), kind: .thumbnail)
        queue.want([screen, thumbnail])
        #expect(fake.waitForCompletions(2))

        // The full-screen image comes with its levels down to 1x1; the thumbnail alone.
        let chain = try #require(results.withLock { entries[screen] })
        #expect(chain.levels.map { [$0.width, $0.height] } == [[64, 48], [32, 24], [16, 12], [8, 6], [4, 3], [2, 1], [1, 1]])
        #expect(results.withLock { entries[thumbnail] }?.levels.count == 1)
        // The cache holds them as handed back, and counts every level.
        #expect(cache.mipChain(for: screen)?.levels.count == 7)
        #expect(cache.byteCount == (64 * 48 + 32 * 24 + 16 * 12 + 8 * 6 + 4 * 3 + 2 + 1 + 16 * 12) * 4)
        #expect(cache.reservedByteCount == 0)
    }

    @Test func theTotalNeverExceedsTheLimitAndTheMostUrgentStay() throws {
        // Each entry 30x30 with its levels is 4,736 bytes; each decode reserves 10,800.
        let limit = 40_000
        let cache = ImageCache(byteLimit: limit)
        let fake = FakeDecoder()
        let peaks = NSLock()
        nonisolated(unsafe) var peak = 0
        let queue = DecodeQueue(cache: cache, workers: 2, logger: LogRecorder().logger, makeDecoder: {
            { key in
                peaks.withLock { peak = max(peak, cache.usedByteCount) }  // this decode's reservation included
                return try fake.decode(key)
            }
        }, completion: { _, _ in
            peaks.withLock { peak = max(peak, cache.usedByteCount) }
        })
        defer { queue.stop() }

        // Something no longer wanted, which goes first.
        cache.insert(MipChain(Bitmap(width: 30, height: 30)), for: key("old", 30))
        let wanted = (0..<20).map { key("photo-\($0)", 30) }
        queue.want(wanted)
        queue.waitUntilIdle()

        #expect(peaks.withLock { peak } <= limit)
        // Seven entries and one more decode's buffers do not fit: the first seven are kept, and the
        // rest, which could only be held by evicting more urgent ones, were not decoded.
        #expect(cache.keys == Set(wanted.prefix(7)))
        #expect(Set(fake.decoded) == Set(wanted.prefix(7)))
        #expect(cache.byteCount == 7 * 4736 && cache.byteLimit == limit)
    }

    @Test func thePhotoOnScreenIsNotEvictedForItsNeighbours() throws {
        // As at 3840x2160 with 128 MB: the open photo and the working buffers of one neighbour's
        // decode do not fit together. A 40x40 entry is 8,520 bytes; its decode reserves 19,200.
        let cache = ImageCache(byteLimit: 25_000)
        let fake = FakeDecoder()
        let queue = fake.makeQueue(cache: cache)
        defer { queue.stop() }
        let (previous, current, next, afterNext) = (key("p1", 40), key("p2", 40), key("p3", 40), key("p4", 40))

        queue.want([current, previous, next])
        queue.waitUntilIdle()
        #expect(cache.keys == [current])
        #expect(fake.decoded == [current])
        queue.want([current, previous, next])  // every frame asks again: nothing changes
        queue.waitUntilIdle()
        #expect(cache.keys == [current] && fake.decoded == [current])

        // Paged on: the old photo is a neighbour now, and makes room for the new one.
        queue.want([next, current, afterNext])
        queue.waitUntilIdle()
        #expect(cache.keys == [next])
        #expect(fake.decoded == [current, next])
    }

    @Test func theCacheGrowsForThePhotoOnScreenAndSaysSoOnce() throws {
        let cache = ImageCache(byteLimit: 10_000)
        let fake = FakeDecoder()
        let log = LogRecorder()
        let queue = fake.makeQueue(cache: cache, log: log)
        defer { queue.stop() }

        queue.want([key("a", 40), key("b", 40)])
        queue.waitUntilIdle()
        #expect(cache.keys == [key("a", 40)])
        #expect(cache.byteLimit == 19_200)  // the decode's working buffers, the least that holds it
        queue.want([key("b", 40), key("a", 40)])
        queue.waitUntilIdle()
        #expect(cache.keys == [key("b", 40)])
        #expect(cache.byteLimit == 19_200)
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("cache.megabytes cannot hold the photo on screen") == true)
    }

    @Test func realPhotosGoThroughTheCacheWithWarningsLoggedOnce() throws {
        let cache = ImageCache(megabytes: 16)
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        let results = NSLock()
        nonisolated(unsafe) var outcomes: [ImageKey: Result<MipChain, PhotoError>] = [:]
        let queue = DecodeQueue(cache: cache, workers: 2, decoding: DecodeOptions(maxMegapixels: 100), logger: log.logger) { key, result in
            results.withLock { outcomes[key] = result }
            done.signal()
        }
        defer { queue.stop() }

        let good = ImageKey(path: TestJPEGs.path("orientation/Landscape_6.jpg"), size: ImageSize(width: 90, height: 60))
        let truncatedSmall = ImageKey(path: TestJPEGs.path("bad/bad_truncated_50pct_Landscape_1.jpg"), size: ImageSize(width: 30, height: 20))
        let truncatedLarge = ImageKey(path: truncatedSmall.path, size: ImageSize(width: 90, height: 60))
        let bomb = ImageKey(path: TestJPEGs.path("bad/bad_bomb_60000x60000_ljt_testorig.jpg"), size: ImageSize(width: 90, height: 90))
        queue.want([good, truncatedSmall, truncatedLarge, bomb])
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 60) == .success) }

        #expect(cache.image(for: good)?.size == Size(width: 90, height: 60))
        // Handed back with its levels (90x60 down to 1x1), as the cache holds it.
        #expect(results.withLock { try? outcomes[good]?.get() }?.levels.count == 7)
        #expect(cache.mipChain(for: good)?.levels.count == 7)
        #expect(cache.contains(truncatedSmall) && cache.contains(truncatedLarge))
        #expect(!cache.contains(bomb))
        #expect(queue.failure(for: bomb.path)?.reason == .tooLarge(width: 60000, height: 60000, maxMegapixels: 100))
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 2)  // the truncated file once (not once per size), the bomb once
        #expect(warnings.contains { $0.contains("bad_truncated_50pct") && $0.contains("Premature end") })
        #expect(warnings.contains { $0.contains("bad_bomb") })
    }

    /// A 48 MP HEIC's decode holds the whole picture (hundreds of MB): however many workers there
    /// are, one such decode runs at a time, while the others go on with small work.
    @Test func decodesThatHoldALargeWholeImageRunOneAtATime() {
        let large = DecodeQueue.wholeImageBytes
        let wholeImages = (1...3).map {
            ImageKey(path: "large-\($0).heic", size: ImageSize(width: 10, height: 10), sourceBytes: large, decoderBytes: large)
        }
        let small = ImageKey(path: "small.jpg", size: ImageSize(width: 10, height: 10))
        let lock = NSLock()
        nonisolated(unsafe) var running = 0, mostAtOnce = 0
        nonisolated(unsafe) var smallRanBesideALargeOne = false
        let smallDone = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let queue = DecodeQueue(cache: ImageCache(byteLimit: 1 << 30), workers: 4, logger: LogRecorder().logger, makeDecoder: {
            { key in
                if key.holdsLargeWholeImage {
                    lock.withLock { running += 1; mostAtOnce = max(mostAtOnce, running) }
                    // The first large decode waits for the small one: it can only come while this
                    // one holds the whole-image slot.
                    if key == wholeImages[0] { smallRanBesideALargeOne = smallDone.wait(timeout: .now() + 30) == .success }
                    Thread.sleep(forTimeInterval: 0.02)
                    lock.withLock { running -= 1 }
                } else {
                    smallDone.signal()
                }
                return (Bitmap(width: key.size.width, height: key.size.height), nil, nil)
            }
        }, completion: { _, _ in done.signal() })
        defer { queue.stop() }

        queue.want(wholeImages + [small])
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 60) == .success) }
        #expect(lock.withLock { mostAtOnce } == 1)
        #expect(smallRanBesideALargeOne)
        #expect((wholeImages + [small]).allSatisfy { queue.failure(for: $0.path) == nil })
    }
}
