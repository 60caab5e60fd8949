import Blitter
import Foundation
import Logging
import Photos

/// The `thumbnail` fuzz target: the bytes as a thumbnail cache file, decoded as
/// `ThumbnailDiskCache.image(for:size:)` decodes what it reads from disk (the key in the comment
/// segment, then TurboJPEG to exactly the expected size). The key is fixed: the seeds are files
/// the cache itself wrote for it (`seed()`).
public enum ThumbnailFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// Refused: the cache would delete the file and count a miss.
        case rejected
        case decoded
    }

    public static let source = ThumbnailDiskCache.Source(path: "/srv/vitrine/photos/fuzz.jpg", fileSize: 123_456,
                                                         modifiedNanoseconds: 1_700_000_000_000_000_000)
    public static let size = ImageSize(width: 48, height: 32)

    nonisolated(unsafe) private static var cache: ThumbnailDiskCache? = try? ThumbnailDiskCache(
        directory: NSTemporaryDirectory() + "vitrine-fuzz-thumbnails-\(getpid())",
        logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() }))

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let cache else { return .rejected }
        return cache.image(fileBytes: Array(bytes), for: source, size: size) == nil ? .rejected : .decoded
    }

    /// A cache file for the fixed key, as the cache writes it: a gradient with a disc.
    public static func seed() -> [UInt8]? {
        guard let cache else { return nil }
        var pixels: [UInt32] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let inDisc = (x - 24) * (x - 24) + (y - 16) * (y - 16) < 100
                let r = UInt32(x * 255 / size.width), g = UInt32(y * 255 / size.height), b: UInt32 = inDisc ? 255 : 40
                pixels.append(0xFF00_0000 | r << 16 | g << 8 | b)
            }
        }
        cache.store(Bitmap(width: size.width, height: size.height, stride: size.width, pixels: pixels), for: source)
        return FileManager.default.contents(atPath: cache.filePath(for: source, size: size)).map(Array.init)
    }
}
