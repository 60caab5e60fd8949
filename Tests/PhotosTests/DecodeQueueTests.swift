import Blitter
import Foundation
import Geometry
import Photos
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

    func decode(_ key: ImageKey) throws -> (bitmap: Bitmap, warning: String?) {
        lock.withLock { calls.append(key) }
        if key == holdKey {
            started.signal()
            gate.wait()
        }
        if key.path == failingPath { throw PhotoError(path: key.path, reason: .noImageData) }
        return (Bitmap(width: key.size.width, height: key.size.height), nil)
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
    @Test func decodesHighPriorityFirst() throws {
        let fake = FakeDecoder()
        fake.holdKey = key("busy")
        let queue = fake.makeQueue(cache: ImageCache(byteLimit: 1 << 20))
        defer { queue.stop() }

        queue.request(key("busy"), priority: 0)
        fake.started.wait()  // the only worker is now held inside "busy"
        queue.request(key("prefetch"), priority: DecodeQueue.Priority.prefetch)
        queue.request(key("visible-1"), priority: DecodeQueue.Priority.visible)
        queue.request(key("visible-2"), priority: DecodeQueue.Priority.visible)
        queue.request(key("current"), priority: DecodeQueue.Priority.current)
        queue.request(key("raised"), priority: DecodeQueue.Priority.prefetch)
        queue.request(key("raised"), priority: DecodeQueue.Priority.current)  // asked again, more urgently
        queue.request(key("current"), priority: DecodeQueue.Priority.prefetch)  // a lower re-request never lowers
        #expect(queue.pending == [key("current"), key("raised"), key("visible-1"), key("visible-2"), key("prefetch")])
        fake.gate.signal()

        #expect(fake.waitForCompletions(6))
        #expect(fake.decoded == [key("busy"), key("current"), key("raised"), key("visible-1"), key("visible-2"), key("prefetch")])
    }

    @Test func theWantedSetReplacesWhatIsPending() throws {
        let fake = FakeDecoder()
        fake.holdKey = key("busy")
        let cache = ImageCache(byteLimit: 1 << 20)
        let queue = fake.makeQueue(cache: cache)
        defer { queue.stop() }

        queue.request(key("busy"), priority: 0)
        fake.started.wait()
        queue.request(key("old-1"), priority: 5)
        queue.request(key("old-2"), priority: 5)
        queue.request(key("kept"), priority: 1)
        queue.setWanted([key("kept"): 9, key("new"): 3, key("busy"): 9])
        queue.cancel(key("new"))
        #expect(queue.pending == [key("kept")])  // "busy" is being decoded already
        fake.gate.signal()

        #expect(fake.waitForCompletions(2))
        #expect(fake.decoded == [key("busy"), key("kept")])
        #expect(cache.keys == [key("busy"), key("kept")])
        // Cached now: asking again decodes nothing.
        queue.request(key("kept"), priority: 9)
        #expect(queue.pendingCount == 0)
    }

    @Test func aFailedFileIsNotRetried() throws {
        let fake = FakeDecoder()
        fake.failingPath = "bad"
        let log = LogRecorder()
        let queue = fake.makeQueue(cache: ImageCache(byteLimit: 1 << 20), log: log)
        defer { queue.stop() }

        queue.request(key("bad"), priority: 1)
        #expect(fake.waitForCompletions(1))
        #expect(queue.failure(for: "bad")?.reason == .noImageData)
        queue.request(key("bad"), priority: 1)
        queue.request(key("bad", 20), priority: 1)  // another size of the same file
        #expect(queue.pendingCount == 0)
        #expect(fake.decoded == [key("bad")])
        #expect(log.messages.filter { $0.level == .warning }.count == 1)

        // Until the file changes on disk.
        queue.forget(path: "bad")
        queue.request(key("bad"), priority: 1)
        #expect(fake.waitForCompletions(1))
        #expect(fake.decoded == [key("bad"), key("bad")])
    }

    @Test func thePendingQueueIsBounded() throws {
        let fake = FakeDecoder()
        fake.holdKey = key("busy")
        let queue = DecodeQueue(cache: ImageCache(byteLimit: 1 << 20), workers: 1, capacity: 3, logger: LogRecorder().logger,
                                makeDecoder: { { try fake.decode($0) } }, completion: { _, _ in fake.completions.signal() })
        defer { queue.stop() }
        queue.request(key("busy"), priority: 0)
        fake.started.wait()
        for (name, priority) in [("a", 1), ("b", 5), ("c", 2), ("d", 4)] {
            queue.request(key(name), priority: priority)
        }
        #expect(queue.pending == [key("b"), key("d"), key("c")])  // the least wanted, "a", was dropped
        fake.gate.signal()
        #expect(fake.waitForCompletions(4))
    }

    @Test func realPhotosGoThroughTheCacheWithWarningsLoggedOnce() throws {
        let cache = ImageCache(megabytes: 16)
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        let results = NSLock()
        nonisolated(unsafe) var outcomes: [ImageKey: Result<Bitmap, PhotoError>] = [:]
        let queue = DecodeQueue(cache: cache, workers: 2, maxMegapixels: 100, logger: log.logger) { key, result in
            results.withLock { outcomes[key] = result }
            done.signal()
        }
        defer { queue.stop() }

        let good = ImageKey(path: TestJPEGs.path("orientation/Landscape_6.jpg"), size: ImageSize(width: 90, height: 60))
        let truncatedSmall = ImageKey(path: TestJPEGs.path("bad/bad_truncated_50pct_Landscape_1.jpg"), size: ImageSize(width: 30, height: 20))
        let truncatedLarge = ImageKey(path: truncatedSmall.path, size: ImageSize(width: 90, height: 60))
        let bomb = ImageKey(path: TestJPEGs.path("bad/bad_bomb_60000x60000_ljt_testorig.jpg"), size: ImageSize(width: 90, height: 90))
        queue.setWanted([good: 10, truncatedSmall: 5, truncatedLarge: 5, bomb: 1])
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 60) == .success) }

        #expect(cache.image(for: good)?.size == Size(width: 90, height: 60))
        #expect(cache.contains(truncatedSmall) && cache.contains(truncatedLarge))
        #expect(!cache.contains(bomb))
        #expect(queue.failure(for: bomb.path)?.reason == .tooLarge(width: 60000, height: 60000, maxMegapixels: 100))
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 2)  // the truncated file once (not once per size), the bomb once
        #expect(warnings.contains { $0.contains("bad_truncated_50pct") && $0.contains("Premature end") })
        #expect(warnings.contains { $0.contains("bad_bomb") })
    }
}
