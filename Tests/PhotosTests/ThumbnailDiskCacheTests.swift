import Blitter
import Foundation
import Logging
import Photos
import TestSupport
import Testing

/// A decoder standing in for JPEG decoding: a picture that depends on the path and the size, and a
/// count of how often the originals were decoded.
private final class CountingDecoder: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [ImageKey] = []
    let completions = DispatchSemaphore(value: 0)

    var decoded: [ImageKey] { lock.withLock { calls } }

    func decode(_ key: ImageKey) -> (bitmap: Bitmap, warning: String?, notice: String?) {
        lock.withLock { calls.append(key) }
        return (Self.picture(for: key), nil, nil)
    }

    /// Smooth gradients (JPEG keeps them well), different for every file.
    static func picture(for key: ImageKey) -> Bitmap {
        let seed = UInt32(key.path.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFF })
        var bitmap = Bitmap(width: key.size.width, height: key.size.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let r = UInt32(x * 255 / max(1, bitmap.width - 1)), g = UInt32(y * 255 / max(1, bitmap.height - 1))
                bitmap[x, y] = Pixel.rgb(UInt8(r), UInt8(g), UInt8(seed))
            }
        }
        return bitmap
    }

    func makeQueue(cache: ImageCache, disk: ThumbnailDiskCache?) -> DecodeQueue {
        DecodeQueue(cache: cache, diskCache: disk, workers: 2, logger: LogRecorder().logger,
                    makeDecoder: { { self.decode($0) } }, completion: { _, _ in self.completions.signal() })
    }

    func waitForCompletions(_ count: Int) -> Bool {
        (0..<count).allSatisfy { _ in completions.wait(timeout: .now() + 60) == .success }
    }
}

private func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

private func setModified(_ path: String, seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    utimensat(AT_FDCWD, path, &times, 0)
}

@Suite struct ThumbnailDiskCacheTests {
    private let size = ImageSize(width: 120, height: 90)

    @Test func theKeyChangesWithTheFileAndTheThumbnailSize() {
        let source = ThumbnailDiskCache.Source(path: "/photos/a.jpg", fileSize: 1000, modifiedNanoseconds: 1_700_000_000_000_000_001)
        let name = ThumbnailDiskCache.fileName(for: source, size: size)
        #expect(name == ThumbnailDiskCache.fileName(
            for: ThumbnailDiskCache.Source(path: "/photos/a.jpg", fileSize: 1000, modifiedNanoseconds: 1_700_000_000_000_000_001), size: size))
        #expect(name.count == 20 && name.hasSuffix(".jpg"))
        let changed = [
            ThumbnailDiskCache.fileName(for: .init(path: "/photos/b.jpg", fileSize: 1000, modifiedNanoseconds: 1_700_000_000_000_000_001), size: size),
            ThumbnailDiskCache.fileName(for: .init(path: "/photos/a.jpg", fileSize: 1001, modifiedNanoseconds: 1_700_000_000_000_000_001), size: size),
            // One nanosecond later: an edit within the same second still misses.
            ThumbnailDiskCache.fileName(for: .init(path: "/photos/a.jpg", fileSize: 1000, modifiedNanoseconds: 1_700_000_000_000_000_002), size: size),
            ThumbnailDiskCache.fileName(for: source, size: ImageSize(width: 121, height: 90)),
            ThumbnailDiskCache.fileName(for: source, size: ImageSize(width: 90, height: 120)),
        ]
        #expect(Set(changed + [name]).count == changed.count + 1)
    }

    @Test func aRelativePathIsKeyedAsAbsolute() {
        let relative = ThumbnailDiskCache.Source(path: "a.jpg", fileSize: 1, modifiedNanoseconds: 2)
        #expect(relative.path == FileManager.default.currentDirectoryPath + "/a.jpg")
    }

    @Test func theDirectoryComesFromTheSettingsOrSystemd() {
        #expect(ThumbnailDiskCache.resolveDirectory(configured: "/var/cache/vitrine", environment: ["CACHE_DIRECTORY": "/x"])
            == "/var/cache/vitrine/thumbnails")
        #expect(ThumbnailDiskCache.resolveDirectory(configured: nil, environment: ["CACHE_DIRECTORY": "/var/cache/vitrine:/other"])
            == "/var/cache/vitrine/thumbnails")
        #expect(ThumbnailDiskCache.resolveDirectory(configured: nil, environment: [:]) == nil)
        #expect(ThumbnailDiskCache.configured(directory: nil, environment: [:], logger: LogRecorder().logger) == nil)
    }

    @Test func aThumbnailComesBackFromDiskNearlyTheSame() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let photo = TestJPEGs.path("variants/jxl_flower_q85_420_R13B.jpg")
        let thumbnail = try JPEGDecoder().decode(path: photo, to: size).bitmap
        let source = try #require(ThumbnailDiskCache.Source(path: photo))
        let disk = try ThumbnailDiskCache(directory: folder.file("cache"), logger: LogRecorder().logger)

        #expect(disk.image(for: source, size: size) == nil)
        disk.store(thumbnail, for: source)
        let loaded = try #require(disk.image(for: source, size: size))
        #expect(loaded.width == size.width && loaded.height == size.height)
        #expect(meanDifference(loaded, thumbnail) < 3, "\(meanDifference(loaded, thumbnail))")
        #expect(correlation(loaded, thumbnail, Pixel.green) > 0.98)
        #expect(disk.statistics.hits == 1 && disk.statistics.misses == 1 && disk.statistics.writes == 1)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.directory).count == 1)
    }

    @Test func aCorruptOrTruncatedFileIsIgnoredAndRewritten() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let photo = folder.file("photo.jpg")
        try writeFile(photo, [1, 2, 3])
        let source = try #require(ThumbnailDiskCache.Source(path: photo))
        let disk = try ThumbnailDiskCache(directory: folder.file("cache"), logger: LogRecorder().logger)
        let thumbnail = CountingDecoder.picture(for: ImageKey(path: photo, size: size))
        disk.store(thumbnail, for: source)
        let file = disk.filePath(for: source, size: size)
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))

        for bad in [Array(good.prefix(good.count / 2)), [UInt8](repeating: 0x41, count: 500), [], Array(good.prefix(3))] {
            try writeFile(file, bad)
            #expect(disk.image(for: source, size: size) == nil)
            #expect(!FileManager.default.fileExists(atPath: file))
        }
        disk.store(thumbnail, for: source)
        #expect(disk.image(for: source, size: size) != nil)
    }

    @Test func aFIFOWhereAThumbnailGoesIsAMissThenReplacedByTheThumbnail() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let disk = try ThumbnailDiskCache(directory: folder.file("cache"), logger: LogRecorder().logger)
        let source = ThumbnailDiskCache.Source(path: "/photos/a.jpg", fileSize: 10, modifiedNanoseconds: 1)
        let file = disk.filePath(for: source, size: size)
        #expect(mkfifo(file, 0o600) == 0)
        // Neither read (no writer: a blocking open would wait for ever) nor written into.
        #expect(disk.image(for: source, size: size) == nil)
        disk.store(CountingDecoder.picture(for: ImageKey(path: source.path, size: size)), for: source)
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(disk.image(for: source, size: size) != nil)
    }

    @Test func aFileForAnotherKeyIsNotTrusted() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let disk = try ThumbnailDiskCache(directory: folder.file("cache"), logger: LogRecorder().logger)
        let a = ThumbnailDiskCache.Source(path: "/photos/a.jpg", fileSize: 10, modifiedNanoseconds: 1)
        let b = ThumbnailDiskCache.Source(path: "/photos/b.jpg", fileSize: 10, modifiedNanoseconds: 1)
        disk.store(CountingDecoder.picture(for: ImageKey(path: a.path, size: size)), for: a)
        // As if the hash of b collided with a's, or a file was copied in by hand.
        try FileManager.default.copyItem(atPath: disk.filePath(for: a, size: size), toPath: disk.filePath(for: b, size: size))
        #expect(disk.image(for: b, size: size) == nil)
        #expect(disk.image(for: a, size: size) != nil)
        // Asked at another size, a's file is not there at all.
        #expect(disk.image(for: a, size: ImageSize(width: 60, height: 45)) == nil)
    }

    @Test func aSecondStartReadsThumbnailsFromDisk() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var keys: [ImageKey] = []
        for i in 0..<6 {
            let path = folder.file("photo-\(i).jpg")
            try writeFile(path, [UInt8](repeating: UInt8(i), count: 100 + i))
            keys.append(ImageKey(path: path, size: size, kind: .thumbnail))
        }
        let screenKey = ImageKey(path: keys[0].path, size: ImageSize(width: 400, height: 300), kind: .screen)
        let directory = folder.file("cache")

        func start() throws -> (decoded: [ImageKey], cache: ImageCache) {
            let decoder = CountingDecoder()
            let cache = ImageCache(byteLimit: 64 << 20)
            let disk = try ThumbnailDiskCache(directory: directory, logger: LogRecorder().logger)
            let queue = decoder.makeQueue(cache: cache, disk: disk)
            defer { queue.stop() }
            queue.want(keys + [screenKey])
            #expect(decoder.waitForCompletions(keys.count + 1))
            return (decoder.decoded, cache)
        }

        let first = try start()
        #expect(Set(first.decoded) == Set(keys + [screenKey]))
        let second = try start()
        // Only the full-screen image is decoded again; every thumbnail came from disk.
        #expect(second.decoded == [screenKey])
        for key in keys {
            let a = try #require(first.cache.image(for: key)), b = try #require(second.cache.image(for: key))
            #expect(meanDifference(a, b) < 3)
        }

        // A photo replaced on disk (new size and time) is decoded again.
        try writeFile(keys[2].path, [UInt8](repeating: 9, count: 5000))
        setModified(keys[2].path, seconds: 1_000_000)
        let third = try start()
        #expect(third.decoded.sorted { $0.path < $1.path } == [keys[2], screenKey].sorted { $0.path < $1.path })
    }

    @Test func anUnwritableDirectoryDegradesGracefully() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let log = LogRecorder()
        // A path under a regular file can never be a directory (even for root).
        try writeFile(folder.file("file"), [0])
        #expect(ThumbnailDiskCache.configured(directory: folder.file("file/cache"), environment: [:], logger: log.logger) == nil)
        #expect(log.messages.contains { $0.level == .warning && $0.text.contains("cannot create") })

        // A directory that goes away after the start: writes fail once, loudly, then quietly.
        let directory = folder.file("cache")
        let disk = try ThumbnailDiskCache(directory: directory, logger: log.logger)
        try FileManager.default.removeItem(atPath: directory)
        try writeFile(directory, [0])
        let photo = folder.file("photo.jpg")
        try writeFile(photo, [1, 2, 3])
        let keys = (0..<3).map { ImageKey(path: photo, size: ImageSize(width: 40 + $0, height: 30), kind: .thumbnail) }
        let decoder = CountingDecoder()
        let cache = ImageCache(byteLimit: 1 << 20)
        let queue = decoder.makeQueue(cache: cache, disk: disk)
        defer { queue.stop() }
        queue.want(keys)
        #expect(decoder.waitForCompletions(keys.count))
        #expect(keys.allSatisfy { cache.contains($0) })
        #expect(log.messages.filter { $0.text.contains("Cannot save thumbnails") }.count == 1)
        #expect(disk.statistics.writes == 0)
    }

    @Test func theDirectoryIsPrunedLeastRecentlyUsedFirst() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let photo = folder.file("photo.jpg")
        try writeFile(photo, [1])
        let source = try #require(ThumbnailDiskCache.Source(path: photo))
        let sizes = (0..<8).map { ImageSize(width: 100 + $0, height: 80) }
        let unbounded = try ThumbnailDiskCache(directory: folder.file("cache"), logger: LogRecorder().logger)
        for (i, size) in sizes.enumerated() {
            unbounded.store(CountingDecoder.picture(for: ImageKey(path: photo, size: size)), for: source)
            setModified(unbounded.filePath(for: source, size: size), seconds: 1_000_000 + i)
        }
        let files = sizes.map { unbounded.filePath(for: source, size: $0) }
        let bytes = try files.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }
        let total = bytes.reduce(0, +)

        // A limit a little under the total: the oldest go, down to three quarters of the limit.
        let limit = total - 1
        let bounded = try ThumbnailDiskCache(directory: folder.file("cache"), byteLimit: limit, logger: LogRecorder().logger)
        bounded.prune()
        let kept = files.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(!kept.isEmpty && kept.count < files.count)
        #expect(kept == Array(files.suffix(kept.count)))  // the newest survive
        let keptBytes = zip(files, bytes).filter { kept.contains($0.0) }.map(\.1).reduce(0, +)
        #expect(keptBytes <= limit / 4 * 3)
        #expect(bounded.statistics.pruned == files.count - kept.count)
    }
}
