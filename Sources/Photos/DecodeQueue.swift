import Blitter
import Foundation
import Linux
import Logging

/// Decodes photos on worker threads, most wanted first, into an `ImageCache`.
///
/// Requests carry a priority (higher first; equal priorities in request order). The owner raises
/// priorities for what is on screen now (visible cells, the current page) and can replace the whole
/// pending set when the view moves on, so nothing stale is decoded. The pending queue is bounded:
/// past `capacity` the least wanted request is dropped (the owner asks again when it needs it).
/// A file that failed is remembered by path and not tried again until `forget(path:)`.
///
/// `completion` is called on a worker thread after the result is in the cache (or the failure is
/// recorded); it should only wake the owner's event loop.
///
/// With a `ThumbnailDiskCache`, thumbnail requests (`ImageKey.Kind.thumbnail`) are first looked up
/// on disk; a miss decodes the original and saves the result for the next start.
public final class DecodeQueue: @unchecked Sendable {
    /// Decodes one request; each worker thread makes its own (TurboJPEG handles are per thread).
    public typealias DecodeFunction = (ImageKey) throws -> (bitmap: Bitmap, warning: String?)
    public typealias Completion = @Sendable (ImageKey, Result<Bitmap, PhotoError>) -> Void

    /// Suggested priorities; any Int works, higher first.
    public enum Priority {
        public static let prefetch = 0
        public static let visible = 10
        public static let current = 20
    }

    private let state: State

    /// The queue for real photos: each worker owns a `JPEGDecoder`.
    public convenience init(cache: ImageCache, diskCache: ThumbnailDiskCache? = nil, workers: Int = 2,
                            capacity: Int = 256, maxMegapixels: Double = 100,
                            logger: Logger, completion: @escaping Completion) {
        self.init(cache: cache, diskCache: diskCache, workers: workers, capacity: capacity, logger: logger, makeDecoder: {
            let decoder = try JPEGDecoder(maxMegapixels: maxMegapixels)
            return { key in
                let image = try decoder.decode(path: key.path, to: key.size)
                return (image.bitmap, image.warning)
            }
        }, completion: completion)
    }

    /// A queue with any decoder (tests, simulations).
    public init(cache: ImageCache, diskCache: ThumbnailDiskCache? = nil, workers: Int = 2, capacity: Int = 256,
                logger: Logger, makeDecoder: @escaping @Sendable () throws -> DecodeFunction,
                completion: @escaping Completion) {
        state = State(cache: cache, diskCache: diskCache, capacity: max(1, capacity), logger: logger,
                      completion: completion)
        for index in 0..<max(1, workers) {
            state.startWorker(name: "vitrine-decode-\(index)", makeDecoder: makeDecoder)
        }
    }

    deinit {
        state.stop(wait: false)  // never wait here: the last reference may go on a worker thread
    }

    /// Asks for `key` at `priority`. Nothing happens if it is cached, being decoded, or its file
    /// failed before; if it is already pending, its priority is raised to `priority` if higher.
    public func request(_ key: ImageKey, priority: Int) {
        state.request(key, priority: priority)
    }

    /// Replaces everything pending by `wanted` (key -> priority); decodes under way finish.
    public func setWanted(_ wanted: [ImageKey: Int]) {
        state.setWanted(wanted)
    }

    /// Drops a pending request.
    public func cancel(_ key: ImageKey) {
        state.cancel(key)
    }

    /// Why the file at `path` could not be decoded, if it failed.
    public func failure(for path: String) -> PhotoError? {
        state.failure(for: path)
    }

    /// Forgets what is known about a file that changed on disk: its failure, its warning and its
    /// cached images; pending requests stay.
    public func forget(path: String) {
        state.forget(path: path)
    }

    public var pendingCount: Int { state.pendingCount }
    /// True when nothing is pending and no decode is under way (its result is in the cache).
    public var isIdle: Bool { state.isIdle }
    /// The pending requests, best first.
    public var pending: [ImageKey] { state.pendingKeys }

    /// Stops the workers after their current decode and waits for them. Pending requests are dropped.
    public func stop() {
        state.stop(wait: true)
    }
}

extension DecodeQueue {
    /// Everything the workers share, behind one lock.
    fileprivate final class State: @unchecked Sendable {
        struct Pending {
            var priority: Int
            var sequence: UInt64
            func isBefore(_ other: Pending) -> Bool {
                priority != other.priority ? priority > other.priority : sequence < other.sequence
            }
        }

        let cache: ImageCache
        let diskCache: ThumbnailDiskCache?
        let capacity: Int
        let logger: Logger
        let completion: Completion

        private let condition = NSCondition()
        private var pending: [ImageKey: Pending] = [:]
        private var inFlight: Set<ImageKey> = []
        private var failures: [String: PhotoError] = [:]
        private var warned: Set<String> = []
        private var sequence: UInt64 = 0
        private var stopping = false
        private let running = DispatchGroup()

        init(cache: ImageCache, diskCache: ThumbnailDiskCache?, capacity: Int, logger: Logger,
             completion: @escaping Completion) {
            if !ProcessHeap.mapLargeBlocks() {
                logger.warning("mallopt(M_MMAP_THRESHOLD) refused: freed pictures may stay resident in the heap")
            }
            self.cache = cache
            self.diskCache = diskCache
            self.capacity = capacity
            self.logger = logger
            self.completion = completion
        }

        func startWorker(name: String, makeDecoder: @escaping @Sendable () throws -> DecodeFunction) {
            running.enter()
            let thread = Thread { [self] in
                defer { running.leave() }
                do {
                    let decode = try makeDecoder()
                    work(decode)
                } catch {
                    logger.critical("Decoder thread \(name) cannot start: \(error)")
                }
            }
            thread.name = name
            thread.start()
        }

        private func locked<T>(_ body: () -> T) -> T {
            condition.lock()
            defer { condition.unlock() }
            return body()
        }

        // MARK: Requests

        func request(_ key: ImageKey, priority: Int) {
            locked {
                if var existing = pending[key] {
                    existing.priority = max(existing.priority, priority)
                    pending[key] = existing
                    return
                }
                guard isWorthDecoding(key) else { return }
                sequence += 1
                pending[key] = Pending(priority: priority, sequence: sequence)
                trimToCapacity()
                condition.signal()
            }
        }

        func setWanted(_ wanted: [ImageKey: Int]) {
            locked {
                var next: [ImageKey: Pending] = [:]
                // New keys in a deterministic order so equal priorities keep a stable FIFO.
                for (key, priority) in wanted.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key.path < $1.key.path }) {
                    if let existing = pending[key] {
                        next[key] = Pending(priority: priority, sequence: existing.sequence)
                    } else if isWorthDecoding(key) {
                        sequence += 1
                        next[key] = Pending(priority: priority, sequence: sequence)
                    }
                }
                pending = next
                trimToCapacity()
                condition.broadcast()
            }
        }

        func cancel(_ key: ImageKey) {
            locked { pending[key] = nil }
        }

        func failure(for path: String) -> PhotoError? {
            locked { failures[path] }
        }

        func forget(path: String) {
            locked {
                failures[path] = nil
                warned.remove(path)
            }
            cache.removeAll(path: path)
        }

        var pendingCount: Int { locked { pending.count } }
        var isIdle: Bool { locked { pending.isEmpty && inFlight.isEmpty } }

        var pendingKeys: [ImageKey] {
            locked { pending.sorted { $0.value.isBefore($1.value) }.map(\.key) }
        }

        func stop(wait: Bool) {
            locked {
                stopping = true
                pending.removeAll()
                condition.broadcast()
            }
            if wait { running.wait() }
        }

        /// Call with the lock held.
        private func isWorthDecoding(_ key: ImageKey) -> Bool {
            !stopping && !inFlight.contains(key) && failures[key.path] == nil && !cache.contains(key)
        }

        /// Call with the lock held: drops the least wanted requests past the capacity.
        private func trimToCapacity() {
            while pending.count > capacity {
                guard let worst = pending.max(by: { $0.value.isBefore($1.value) }) else { return }
                pending[worst.key] = nil
            }
        }

        // MARK: Workers

        private func next() -> ImageKey? {
            condition.lock()
            defer { condition.unlock() }
            while pending.isEmpty, !stopping { condition.wait() }
            guard !stopping, let best = pending.min(by: { $0.value.isBefore($1.value) }) else { return nil }
            pending[best.key] = nil
            inFlight.insert(best.key)
            return best.key
        }

        /// A thumbnail from the disk cache if it has a sound one; else the original decoded, and the
        /// thumbnail saved when the decode was clean and the file did not change meanwhile.
        private func decodeThroughDisk(_ key: ImageKey, _ decode: DecodeFunction) throws -> (bitmap: Bitmap, warning: String?) {
            guard key.kind == .thumbnail, let diskCache, let source = ThumbnailDiskCache.Source(path: key.path) else {
                return try decode(key)
            }
            if let bitmap = diskCache.image(for: source, size: key.size) { return (bitmap, nil) }
            let result = try decode(key)
            if result.warning == nil, result.bitmap.width == key.size.width, result.bitmap.height == key.size.height,
               ThumbnailDiskCache.Source(path: key.path) == source {
                diskCache.store(result.bitmap, for: source)
            }
            return result
        }

        private func work(_ decode: DecodeFunction) {
            while let key = next() {
                // The decoder's buffers count against the cache's limit while they exist: the
                // output, and the scaled decode before resampling (up to twice as wide and high,
                // typically about twice the pixels).
                let working = 3 * key.size.pixelCount * MemoryLayout<UInt32>.stride
                cache.reserve(working)
                let result: Result<(bitmap: Bitmap, warning: String?), PhotoError>
                do {
                    result = .success(try decodeThroughDisk(key, decode))
                } catch let error as PhotoError {
                    result = .failure(error)
                } catch {
                    result = .failure(PhotoError(path: key.path, reason: .decoder("\(error)")))
                }
                cache.release(working)

                var logLine: String?
                let outcome: Result<Bitmap, PhotoError>
                switch result {
                case let .success(image):
                    cache.insert(image.bitmap, for: key)
                    outcome = .success(image.bitmap)
                    locked {
                        if let warning = image.warning, warned.insert(key.path).inserted {
                            logLine = "Photo \(key.path) is damaged, showing what could be decoded: \(warning)"
                        }
                    }
                case let .failure(error):
                    outcome = .failure(error)
                    locked {
                        if failures[key.path] == nil { logLine = "Skipping photo \(error.path): \(error.reason)" }
                        failures[key.path] = error
                        // Other sizes of the same file would fail the same way.
                        pending = pending.filter { $0.key.path != key.path }
                    }
                }
                let ranDry = locked { () -> Bool in
                    inFlight.remove(key)
                    return pending.isEmpty && inFlight.isEmpty
                }
                if let logLine { logger.warning("\(logLine)") }
                completion(key, outcome)
                // The burst is over: what the decoders freed in the heap goes back to the kernel.
                if ranDry { ProcessHeap.returnFreePages() }
            }
        }
    }
}
