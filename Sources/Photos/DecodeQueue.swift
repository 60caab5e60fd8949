import Blitter
import Foundation
import Linux
import Logging

/// Decodes photos on worker threads, most wanted first, into an `ImageCache`.
///
/// The owner says what it wants with one list, most urgent first (`want`), each time the view
/// changes: the order is the priority, and the list replaces the last one, so nothing stale is
/// decoded (decodes under way finish). The pending queue is bounded: past `capacity` the least
/// wanted keys are left out (the owner asks again when it needs them). A file that failed is
/// remembered by path and not tried again until `forget(path:)`.
///
/// The workers hand finished cache entries to the cache: a full-screen image (`ImageKey.Kind.screen`)
/// with its mip levels, built on the worker, a thumbnail alone. While a decode runs its working
/// buffers are reserved in the cache, and the list decides what may be evicted for them: a decode
/// that would need room held by something more urgent waits, or is left out until the list changes.
///
/// `completion` is called on a worker thread after the entry is in the cache (or the failure is
/// recorded); it should only wake the owner's event loop.
///
/// With a `ThumbnailDiskCache`, thumbnail requests (`ImageKey.Kind.thumbnail`) are first looked up
/// on disk; a miss decodes the original and saves the result for the next start.
public final class DecodeQueue: @unchecked Sendable {
    /// Decodes one request; each worker thread makes its own (TurboJPEG handles are per thread).
    /// `warning` says the picture is damaged (shown as far as it decoded); `notice` is logged once
    /// per file without calling it damaged (its colours shown unconverted).
    public typealias DecodeFunction = (ImageKey) throws -> (bitmap: Bitmap, warning: String?, notice: String?)
    public typealias Completion = @Sendable (ImageKey, Result<MipChain, PhotoError>) -> Void

    private let state: State

    /// From this size up, a decoder's whole-image buffer (`ImageKey.decoderBytes`: a 48 MP HEIC's
    /// planes, a large progressive JPEG's coefficients) is held by one decode at a time: a kiosk
    /// whose workers would otherwise each hold a full-size 48 MP image at once (hundreds of MB
    /// apiece) holds one, and the other workers go on with what is small (thumbnails from disk,
    /// baseline JPEGs). 32 MB is an 8 MP picture at 4 bytes a pixel.
    public static let wholeImageBytes = 32 << 20

    /// The queue for real photos: each worker owns a `PhotoDecoder` (the format chosen by each
    /// file's content). With `captions`, a screen image's decode also reads the photo's caption,
    /// from the same bytes, the first time.
    public convenience init(cache: ImageCache, diskCache: ThumbnailDiskCache? = nil, workers: Int = 2,
                            capacity: Int = 256, decoding options: DecodeOptions = DecodeOptions(),
                            captions: CaptionShelf? = nil, logger: Logger, completion: @escaping Completion) {
        self.init(cache: cache, diskCache: diskCache, workers: workers, capacity: capacity, decodeLimit: options.memoryBudget,
                  logger: logger, makeDecoder: Self.photoDecoder(options, captions: captions), completion: completion)
    }

    /// Each worker's decode of real photos: the key's file at the key's size through a
    /// `PhotoDecoder` of its own (opened once), and the caption errand on the same bytes.
    public static func photoDecoder(_ options: DecodeOptions,
                                    captions: CaptionShelf? = nil) -> @Sendable () throws -> DecodeFunction {
        return {
            let decoder = try PhotoDecoder(options: options)
            return { key in
                let wantsCaption = key.kind == .screen && captions.map { !$0.knows(key.path) } == true
                let (image, metadata) = try decoder.decode(path: key.path, to: key.decodeSize ?? key.size, metadata: wantsCaption,
                                                                 version: key.version)
                if let captions, let metadata { captions.read(path: key.path, metadata: metadata) }
                let notice = image.colourWarning.map { "its colours are shown unconverted: \($0)" }
                // A panorama's thumbnail keeps the middle of its decode.
                let kept = key.decodeSize == nil ? image.bitmap : image.bitmap.centredCrop(width: key.size.width, height: key.size.height)
                return (kept, image.warning, notice)
            }
        }
    }

    /// A queue with any decoder (tests, simulations). `decodeLimit`: what a decode may hold
    /// besides its output (`DecodeOptions.memoryBudget`); a key asking more is refused without a
    /// decode, and the cache never grows for it. nil: the cache's own budget.
    public init(cache: ImageCache, diskCache: ThumbnailDiskCache? = nil, workers: Int = 2, capacity: Int = 256,
                decodeLimit: Int? = nil, logger: Logger, makeDecoder: @escaping @Sendable () throws -> DecodeFunction,
                completion: @escaping Completion) {
        state = State(cache: cache, diskCache: diskCache, capacity: max(1, capacity), decodeLimit: decodeLimit ?? cache.budget,
                      logger: logger, completion: completion)
        for index in 0..<max(1, workers) {
            state.startWorker(name: "vitrine-decode-\(index)", makeDecoder: makeDecoder)
        }
    }

    deinit {
        state.stop(wait: false)  // never wait here: the last reference may go on a worker thread
    }

    /// What the owner wants now, most urgent first (a key listed twice keeps its first place). The
    /// keys not cached, not being decoded and whose file has not failed replace everything pending;
    /// decodes under way finish. The cache evicts by the same order.
    public func want(_ keys: [ImageKey]) {
        state.want(keys)
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
    /// The pending requests, most urgent first.
    public var pending: [ImageKey] { state.pendingKeys }

    /// Blocks until the queue is idle, or `timeout` seconds passed (false); never on the frame loop.
    @discardableResult
    public func waitUntilIdle(timeout: Double = 60) -> Bool {
        state.waitUntilIdle(deadline: Date().addingTimeInterval(timeout))
    }

    /// Stops the workers after their current decode and waits for them. Pending requests are dropped.
    public func stop() {
        state.stop(wait: true)
    }
}

extension DecodeQueue {
    /// Everything the workers share, behind one lock.
    fileprivate final class State: @unchecked Sendable {
        let cache: ImageCache
        let diskCache: ThumbnailDiskCache?
        let capacity: Int
        let decodeLimit: Int
        let logger: Logger
        let completion: Completion

        private let condition = NSCondition()
        /// Most urgent first, no duplicates.
        private var pending: [ImageKey] = []
        private var inFlight: Set<ImageKey> = []
        /// True while a decode that holds a large whole image runs (`ImageKey.holdsLargeWholeImage`).
        private var largeWholeImageInFlight = false
        private var failures: [String: PhotoError] = [:]
        private var warned: Set<String> = []
        private var noticed: Set<String> = []
        private var warnedGrowth = false
        private var stopping = false
        private let running = DispatchGroup()

        init(cache: ImageCache, diskCache: ThumbnailDiskCache?, capacity: Int, decodeLimit: Int, logger: Logger,
             completion: @escaping Completion) {
            if !ProcessHeap.mapLargeBlocks() {
                logger.warning("mallopt(M_MMAP_THRESHOLD) refused: freed pictures may stay resident in the heap")
            }
            self.cache = cache
            self.diskCache = diskCache
            self.capacity = capacity
            self.decodeLimit = decodeLimit
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

        func want(_ keys: [ImageKey]) {
            var seen = Set<ImageKey>()
            let wanted = keys.filter { seen.insert($0).inserted }
            locked {
                cache.prioritize(wanted)
                pending = Array(wanted.lazy.filter(isWorthDecoding).prefix(capacity))
                condition.broadcast()
            }
        }

        func failure(for path: String) -> PhotoError? {
            locked { failures[path] }
        }

        func forget(path: String) {
            locked {
                failures[path] = nil
                warned.remove(path)
                noticed.remove(path)
            }
            cache.removeAll(path: path)
        }

        var pendingCount: Int { locked { pending.count } }
        var isIdle: Bool { locked { pending.isEmpty && inFlight.isEmpty } }

        var pendingKeys: [ImageKey] { locked { pending } }

        func waitUntilIdle(deadline: Date) -> Bool {
            locked {
                while !(pending.isEmpty && inFlight.isEmpty) {
                    if !condition.wait(until: deadline) { return false }
                }
                return true
            }
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

        // MARK: Workers

        /// The decoder's buffers while it runs: the file and the decoder's whole-image buffer
        /// (`ImageKey.sourceBytes`), the output, and the scaled decode before resampling (up to
        /// twice as wide and high, typically about twice the pixels); the output's mip levels, a
        /// third of it, are made once the scaled decode is gone.
        static func workingBytes(for key: ImageKey) -> Int {
            key.sourceBytes + 3 * key.size.pixelCount * MemoryLayout<UInt32>.stride
        }

        /// The most urgent pending key whose working buffers the cache can make room for, with its
        /// reservation (and the warning to log when the cache grew for it, the first time). When
        /// none fits, a decode under way may free room: wait for it; with none under way, nothing
        /// pending can fit until the list changes, and it is dropped.
        private func next() -> Next? {
            condition.lock()
            defer { condition.unlock() }
            while !stopping {
                // What the file would have a decode hold past the limit is refused, never reserved:
                // the cache does not grow for it (the scan refuses such files already; this holds
                // for keys made otherwise).
                if let index = pending.firstIndex(where: { $0.sourceBytes > decodeLimit }) {
                    let key = pending.remove(at: index)
                    inFlight.insert(key)
                    return .refuse(key, PhotoError(path: key.path, reason: .tooLargeForMemory(needs: key.sourceBytes, budget: decodeLimit)))
                }
                var refusedBytes = Int.max  // a less urgent key needing as much cannot fit either
                for (index, key) in pending.enumerated() {
                    // The whole-image slot is taken: a later, smaller key may start meanwhile.
                    if key.holdsLargeWholeImage && largeWholeImageInFlight { continue }
                    let bytes = Self.workingBytes(for: key)
                    guard bytes < refusedBytes else { continue }
                    let reservation: ImageCache.Reservation
                    var warning: String?
                    switch cache.reserve(bytes, for: key) {
                    case .refused:
                        refusedBytes = bytes
                        continue
                    case let .granted(granted):
                        reservation = granted
                    case let .grown(granted, limit):
                        reservation = granted
                        if !warnedGrowth {
                            warnedGrowth = true
                            let source = key.sourceBytes > 0
                                ? ", \(megabytes(key.sourceBytes)) of it the file and the decoder's whole-image buffer" : ""
                            warning = "cache.megabytes cannot hold the photo on screen (\(LogLine.escaped(key.path)) at "
                                + "\(key.size) needs \(megabytes(bytes)) while it decodes\(source)): the cache grows to \(megabytes(limit))"
                        }
                    }
                    pending.remove(at: index)
                    inFlight.insert(key)
                    if key.holdsLargeWholeImage { largeWholeImageInFlight = true }
                    return .decode(key, reservation, warning: warning)
                }
                if inFlight.isEmpty, !pending.isEmpty {
                    pending.removeAll()
                    condition.broadcast()  // idle now
                }
                condition.wait()
            }
            return nil
        }

        /// What a worker does next: decode a key with its reservation (and the warning to log when
        /// the cache grew for it), or refuse one without decoding it.
        enum Next {
            case decode(ImageKey, ImageCache.Reservation, warning: String?)
            case refuse(ImageKey, PhotoError)
        }

        private func megabytes(_ bytes: Int) -> String {
            "\(ByteCount(bytes))"
        }

        /// A thumbnail from the disk cache if it has a sound one; else the original decoded, and the
        /// thumbnail saved when the decode was clean and the file did not change meanwhile.
        private func decodeThroughDisk(_ key: ImageKey, _ decode: DecodeFunction) throws -> (bitmap: Bitmap, warning: String?, notice: String?) {
            guard key.kind == .thumbnail, let diskCache, let source = ThumbnailDiskCache.Source(path: key.path) else {
                return try decode(key)
            }
            // The disk's thumbnail of another version than the scan's would be shown for this one.
            if let version = key.version, FileVersion(size: source.fileSize, modified: source.modified) != version {
                throw PhotoError(path: key.path, reason: .changed(since: version,
                                                                  now: FileVersion(size: source.fileSize, modified: source.modified)))
            }
            if let bitmap = diskCache.image(for: source, size: key.size) { return (bitmap, nil, nil) }
            let result = try decode(key)
            if result.warning == nil, result.bitmap.width == key.size.width, result.bitmap.height == key.size.height,
               ThumbnailDiskCache.Source(path: key.path) == source {
                diskCache.store(result.bitmap, for: source)
            }
            return result
        }

        /// The cache entry for a decoded image: a full-screen image with its mip levels, for the
        /// transitions that shrink it; a thumbnail, drawn at about its own size, alone.
        static func entry(_ bitmap: Bitmap, for key: ImageKey) -> MipChain {
            key.kind == .screen ? MipChain(bitmap) : .single(bitmap)
        }

        private func work(_ decode: DecodeFunction) {
            while let next = next() {
                let key: ImageKey, reservation: ImageCache.Reservation?
                let result: Result<(entry: MipChain, warning: String?, notice: String?), PhotoError>
                switch next {
                case let .refuse(refused, error):
                    (key, reservation, result) = (refused, nil, .failure(error))
                case let .decode(decoded, reserved, warning):
                    (key, reservation) = (decoded, reserved)
                    if let warning { logger.warning("\(warning)") }
                    do {
                        let image = try decodeThroughDisk(key, decode)
                        result = .success((Self.entry(image.bitmap, for: key), image.warning, image.notice))
                    } catch let error as PhotoError {
                        result = .failure(error)
                    } catch {
                        result = .failure(PhotoError(path: key.path, reason: .corrupt(format: "image", "\(error)")))
                    }
                }

                var logLine: String?, noticeLine: String?
                let outcome: Result<MipChain, PhotoError>
                switch result {
                case let .success(image):
                    if let reservation { cache.insert(image.entry, replacing: reservation) }
                    outcome = .success(image.entry)
                    locked {
                        if let warning = image.warning, warned.insert(key.path).inserted {
                            logLine = "Photo \(LogLine.escaped(key.path)) is damaged, showing what could be decoded: \(warning)"
                        }
                        if let notice = image.notice, noticed.insert(key.path).inserted {
                            noticeLine = "Photo \(LogLine.escaped(key.path)): \(notice)"
                        }
                    }
                case let .failure(error):
                    if let reservation { cache.release(reservation) }
                    outcome = .failure(error)
                    locked {
                        // A file changed since the scan is no damage: the rescan brings its new version.
                        if case .changed = error.reason {
                        } else if failures[key.path] == nil {
                            logLine = "Skipping photo \(LogLine.escaped(error.path)): \(error.reason)"
                        }
                        failures[key.path] = error
                        // Other sizes of the same file would fail the same way.
                        pending.removeAll { $0.path == key.path }
                    }
                }
                // The burst is over: what the decoders freed in the heap goes back to the kernel,
                // before the queue says it is idle (so that what waits for it sees the memory).
                let isLast = locked { pending.isEmpty && inFlight.count == 1 }
                if isLast { ProcessHeap.returnFreePages() }
                let ranDry = locked { () -> Bool in
                    inFlight.remove(key)
                    // A refused key never took the whole-image slot.
                    if key.holdsLargeWholeImage, reservation != nil { largeWholeImageInFlight = false }
                    condition.broadcast()  // the room (or the whole-image slot) it held may let a waiting worker start
                    return pending.isEmpty && inFlight.isEmpty
                }
                if let logLine { logger.warning("\(logLine)") }
                if let noticeLine { logger.warning("\(noticeLine)") }
                completion(key, outcome)
                if ranDry && !isLast { ProcessHeap.returnFreePages() }  // two decodes ended together
            }
        }
    }
}
