import Blitter
import Foundation
import Linux
import Logging

/// Grid thumbnails kept on disk between starts, so that a second start shows the grid without
/// decoding the 12 MP originals again.
///
/// One small JPEG per (photo file, thumbnail size) in `<directory>/thumbnails`. The file name is a
/// hash of the photo's absolute path, file size, modification time (ns), the thumbnail's size and
/// the format version, so a replaced or edited photo simply misses. Nothing read back is trusted
/// blindly: the file must carry the full key in its comment segment and decode cleanly to exactly
/// the expected size, else it is deleted and counts as a miss (and the decode queue writes a new
/// one). Files are written with Linux's AtomicFile (a temporary in the same directory, renamed),
/// so a reader never sees half a file. The directory is kept under `byteLimit`, least recently used first:
/// counted on the first write and whenever the running total passes the limit.
///
/// Thread-safe: the decode workers read and write concurrently.
public final class ThumbnailDiskCache: @unchecked Sendable {
    /// Part of every key: bump it when the file format or the thumbnail resampling changes.
    /// 2: photos with a colour profile are converted to sRGB (SPEC §11).
    public static let formatVersion = 2
    public static let defaultByteLimit = 256 * 1024 * 1024

    /// The directory holding the thumbnail files.
    public let directory: String
    public let byteLimit: Int
    private let logger: Logger

    private let lock = NSLock()
    private var codecs: [ThumbnailCodec] = []
    private var writable = true
    private var counters = Statistics()
    /// Bytes in the directory as last counted plus what was written since; nil until counted.
    private var knownBytes: Int?
    private let pruneLock = NSLock()

    /// What the cache did since it was made (for the benchmark and the log).
    public struct Statistics: Equatable, Sendable {
        public var hits = 0
        public var misses = 0
        public var rejected = 0
        public var writes = 0
        public var pruned = 0
        public init() {}
    }

    /// The identity of a photo file's contents, as far as the cache is concerned.
    public struct Source: Hashable, Sendable {
        public let path: String
        public let fileSize: Int
        public let modified: FileTime

        public init(path: String, fileSize: Int, modified: FileTime) {
            self.path = Self.absolute(path)
            self.fileSize = fileSize
            self.modified = modified
        }

        public init(path: String, fileSize: Int, modifiedNanoseconds: Int64) {
            self.init(path: path, fileSize: fileSize, modified: FileTime(nanosecondsSinceEpoch: modifiedNanoseconds))
        }

        /// The file at `path` as it is now; nil if it cannot be stat'ed or is not a regular file.
        public init?(path: String) {
            guard let status = try? FileStatus(path: path), status.kind == .regular else { return nil }
            self.init(path: path, fileSize: status.size, modified: status.modified)
        }

        /// A relative path made absolute from the working folder (as it is when the key is made;
        /// if getcwd fails, the relative path is the key).
        private static func absolute(_ path: String) -> String {
            guard !path.hasPrefix("/"), let current = try? FileName.currentDirectory() else { return path }
            return (current as NSString).appendingPathComponent(path)
        }
    }

    /// Creates `directory` (and its parents) if needed. Throws when it cannot.
    public init(directory: String, byteLimit: Int = ThumbnailDiskCache.defaultByteLimit, logger: Logger) throws {
        self.directory = directory
        self.byteLimit = max(0, byteLimit)
        self.logger = logger
        try FileName.makeDirectories(directory)
    }

    /// The thumbnail folder to use: `<configured>/thumbnails`; with nothing configured,
    /// `<$CACHE_DIRECTORY>/thumbnails` when systemd sets it (the first, if it lists several); else nil.
    public static func resolveDirectory(configured: String?, environment: [String: String]) -> String? {
        let base = configured ?? environment["CACHE_DIRECTORY"]?.split(separator: ":").first.map(String.init)
        guard let base, !base.isEmpty else { return nil }
        return (base as NSString).appendingPathComponent("thumbnails")
    }

    /// The cache for `cache.directory` (nil: $CACHE_DIRECTORY), or nil with one log line saying why
    /// there is none: nothing configured, or the folder cannot be made.
    public static func configured(directory configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                            byteLimit: Int = defaultByteLimit, logger: Logger) -> ThumbnailDiskCache? {
        guard let path = resolveDirectory(configured: configured, environment: environment) else {
            logOnce("No thumbnail cache on disk (cache.directory is not set and $CACHE_DIRECTORY is not either): "
                    + "every start decodes the originals", level: .notice, logger: logger)
            return nil
        }
        do {
            return try ThumbnailDiskCache(directory: path, byteLimit: byteLimit, logger: logger)
        } catch {
            logOnce("No thumbnail cache on disk: cannot create \(LogLine.escaped(path)): \(error)",
                    level: .warning, logger: logger)
            return nil
        }
    }

    private static let loggedLock = NSLock()
    nonisolated(unsafe) private static var logged: Set<String> = []

    /// Viewers are made again when the display changes; the reason there is no cache is said once.
    private static func logOnce(_ message: String, level: Logger.Level, logger: Logger) {
        guard loggedLock.withLock({ logged.insert(message).inserted }) else { return }
        logger.log(level: level, "\(message)")
    }

    // MARK: Keys

    /// The file name for a thumbnail of `size` of `source`: FNV-1a 64 of the key, in hex.
    public static func fileName(for source: Source, size: ImageSize) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in keyText(source, size).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ".jpg"
    }

    /// The whole key, stored in the file and compared on reading (a hash collision or a stray file
    /// is a miss, not a wrong picture).
    static func keyText(_ source: Source, _ size: ImageSize) -> String {
        "vitrine-thumbnail \(formatVersion) \(size.width)x\(size.height) \(source.fileSize) \(source.modified.exactText) \(source.path)"
    }

    public func filePath(for source: Source, size: ImageSize) -> String {
        (directory as NSString).appendingPathComponent(Self.fileName(for: source, size: size))
    }

    // MARK: Reading and writing

    /// The thumbnail of `size` for `source`, if a sound file for it is on disk.
    public func image(for source: Source, size: ImageSize) -> Bitmap? {
        let path = filePath(for: source, size: size)
        guard let bytes = Self.readFile(path) else {
            count { $0.misses += 1 }
            return nil
        }
        guard let bitmap = image(fileBytes: bytes, for: source, size: size) else {
            logger.debug("Ignoring a bad thumbnail cache file \(LogLine.escaped(path)) for \(LogLine.escaped(source.path))")
            removeFile(path)
            count { $0.rejected += 1; $0.misses += 1 }
            return nil
        }
        count { $0.hits += 1 }
        return bitmap
    }

    /// The thumbnail in the bytes of a cache file for `size` of `source`: nil unless they carry the
    /// whole key and decode cleanly to exactly that size. `image(for:size:)` reads the file into it;
    /// the `thumbnail` fuzz target feeds it bytes directly.
    package func image(fileBytes bytes: [UInt8], for source: Source, size: ImageSize) -> Bitmap? {
        withCodec { $0.decode(bytes, size: size, comment: Array(Self.keyText(source, size).utf8)) }
    }

    /// Saves `bitmap` as the thumbnail of its size for `source`. A failure to write is logged once
    /// and turns writing off; the cache keeps serving what it has.
    public func store(_ bitmap: Bitmap, for source: Source) {
        guard lock.withLock({ writable }) else { return }
        if lock.withLock({ knownBytes == nil }) { prune() }
        let size = ImageSize(width: bitmap.width, height: bitmap.height)
        let bytes: [UInt8]
        do {
            guard let encoded = try withCodec({ try $0.encode(bitmap, comment: Array(Self.keyText(source, size).utf8)) }) else { return }
            bytes = encoded
        } catch {
            logger.warning("Cannot encode a thumbnail of \(LogLine.escaped(source.path)): \(error)")
            return
        }
        let target = filePath(for: source, size: size)
        do {
            try AtomicFile.write(bytes, to: target)
        } catch {
            let first = lock.withLock { () -> Bool in
                defer { writable = false }
                return writable
            }
            if first {
                logger.warning("Cannot save thumbnails in \(directory) (\(error)); carrying on without saving them")
            }
            return
        }
        let overLimit = lock.withLock { () -> Bool in
            counters.writes += 1
            knownBytes = (knownBytes ?? 0) + bytes.count
            return (knownBytes ?? 0) > byteLimit
        }
        if overLimit { prune() }
    }

    /// Counts the directory and, past `byteLimit`, deletes the least recently used files down to
    /// three quarters of it (so this runs rarely). Leftover temporary files of a crash go too.
    public func prune() {
        pruneLock.withLock {
            var files: [(path: String, bytes: Int, used: Int64)] = []
            let names: [String]
            do {
                names = try FileName.list(directory).map(\.name)
            } catch {
                logOnceHere("Cannot list the thumbnail cache (\(error)); it is not pruned")
                names = []
            }
            let now = WallClock.epochSeconds()
            var removed = 0
            for name in names {
                let path = (directory as NSString).appendingPathComponent(name)
                guard let status = try? FileStatus(path: path, followingLinks: false), status.kind == .regular else { continue }
                if AtomicFile.isTemporary(name: name) {
                    // Another process's write may be under way: only stale ones are debris.
                    if Self.isOverAnHourOld(status.modifiedSeconds, now: now), removeFile(path) { removed += 1 }
                    continue
                }
                guard name.hasSuffix(".jpg") else { continue }
                files.append((path, status.size, status.modifiedSeconds))
            }
            var total = files.reduce(0) { $0.addingReportingOverflow($1.bytes).overflow ? .max : $0 + $1.bytes }
            if total > byteLimit {
                for file in files.sorted(by: { $0.used < $1.used }) where total > byteLimit / 4 * 3 {
                    if removeFile(file.path) {
                        total -= file.bytes
                        removed += 1
                    }
                }
            }
            lock.withLock {
                knownBytes = total
                counters.pruned += removed
            }
        }
    }

    /// Removes a cache file; false if it cannot be (gone already: another viewer pruned it). A
    /// failure other than ENOENT is logged once: the folder may have become read-only.
    @discardableResult
    private func removeFile(_ path: String) -> Bool {
        do {
            try FileName.remove(path)
            return true
        } catch {
            if error.errno != .noSuchFileOrDirectory { logOnceHere("Cannot remove a thumbnail cache file: \(error)") }
            return false
        }
    }

    public var statistics: Statistics { lock.withLock { counters } }

    // MARK: Helpers

    private func count(_ change: (inout Statistics) -> Void) {
        lock.withLock { change(&counters) }
    }

    /// Runs `body` with a codec lent to this thread; nil if no TurboJPEG handle can be made.
    private func withCodec<T>(_ body: (ThumbnailCodec) throws -> T?) rethrows -> T? {
        var codec = lock.withLock { codecs.popLast() }
        if codec == nil {
            do {
                codec = try ThumbnailCodec()
            } catch {
                logOnceHere("Thumbnail cache disabled for this thread: \(error)")
                return nil
            }
        }
        guard let codec else { return nil }
        defer { lock.withLock { if codecs.count < 8 { codecs.append(codec) } } }
        return try body(codec)
    }

    private func logOnceHere(_ message: String) {
        Self.logOnce(message, level: .warning, logger: logger)
    }

    /// Whether a file time (seconds since the epoch, any Int64: a file may say any time) is more
    /// than an hour before `now`. A time in the future is not.
    static func isOverAnHourOld(_ seconds: Int64, now: Int64) -> Bool {
        let (age, overflow) = now.subtractingReportingOverflow(seconds)
        return overflow ? seconds < 0 : age > 3600
    }

    /// The whole file at `path`, marking it used; nil if it is not there (or cannot be opened), no
    /// bytes if it is empty, implausibly large or shrank while being read. Something else than a
    /// regular file with its name is removed, so that the new thumbnail can take its place.
    private static func readFile(_ path: String) -> [UInt8]? {
        let file: RegularFile
        do {
            file = try RegularFile(path: path)
        } catch {
            if case .notRegularFile = error.reason { try? FileName.remove(path) }
            return nil
        }
        defer { file.close() }
        // Empty or absurd: bad, like a file that does not decode.
        guard file.size > 0, let bytes = try? file.readAll(limit: 64 * 1024 * 1024), bytes.count == file.size else {
            return []
        }
        // The modification time is the "last used" time for pruning; refreshing it costs a
        // metadata write, so only once an hour per file.
        if isOverAnHourOld(file.modified.seconds, now: WallClock.epochSeconds()) {
            try? file.touch()
        }
        return bytes
    }
}
