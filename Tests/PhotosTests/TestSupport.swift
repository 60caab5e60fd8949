import Blitter
import Foundation
import Logging
import Photos
import Testing

/// The test JPEGs copied from the shared corpus (see JPEGs/ATTRIBUTION.md).
enum TestJPEGs {
    static let root: String = {
        guard let url = Bundle.module.url(forResource: "JPEGs", withExtension: nil) else {
            fatalError("JPEGs resource missing from the test bundle")
        }
        return url.path
    }()

    static func path(_ relative: String) -> String {
        (root as NSString).appendingPathComponent(relative)
    }

    static func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
        return names.filter(PhotoLibrary.isPhotoName).sorted().map { "\(folder)/\($0)" }
    }
}

/// Mean absolute difference per channel (0...255) of two bitmaps of the same size.
func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
    precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
    var total = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a[x, y], q = b[x, y]
            total += abs(Int(Pixel.red(p)) - Int(Pixel.red(q)))
            total += abs(Int(Pixel.green(p)) - Int(Pixel.green(q)))
            total += abs(Int(Pixel.blue(p)) - Int(Pixel.blue(q)))
        }
    }
    return Double(total) / Double(3 * a.width * a.height)
}

/// Pearson correlation of one channel of two bitmaps of the same size.
func correlation(_ a: Bitmap, _ b: Bitmap, _ channel: (UInt32) -> UInt8) -> Double {
    let x = a.pixels.prefix(a.stride * a.height).map { Double(channel($0)) }
    let y = b.pixels.prefix(b.stride * b.height).map { Double(channel($0)) }
    let mx = x.reduce(0, +) / Double(x.count), my = y.reduce(0, +) / Double(y.count)
    var sxy = 0.0, sxx = 0.0, syy = 0.0
    for (p, q) in zip(x, y) {
        sxy += (p - mx) * (q - my)
        sxx += (p - mx) * (p - mx)
        syy += (q - my) * (q - my)
    }
    return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
}

/// Standard deviation of the luma, to tell a picture from a flat fill.
func lumaSpread(_ bitmap: Bitmap) -> Double {
    var values: [Double] = []
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width {
            let p = bitmap[x, y]
            values.append(0.299 * Double(Pixel.red(p)) + 0.587 * Double(Pixel.green(p)) + 0.114 * Double(Pixel.blue(p)))
        }
    }
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
}

/// A log handler that keeps the messages, for asserting on warnings.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Logger.Level, String)] = []

    var messages: [(level: Logger.Level, text: String)] { lock.withLock { entries.map { ($0.0, $0.1) } } }

    func record(_ level: Logger.Level, _ text: String) {
        lock.withLock { entries.append((level, text)) }
    }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            recorder.record(event.level, event.message.description)
        }
    }
}

/// A fresh temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("vitrine-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
