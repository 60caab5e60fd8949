import Blitter
import Config
import Foundation
import Geometry
import Linux
import Logging
import Photos
import Rendering

/// `vitrine-bench scan [--counts 1000,10000,100000]`: start-up against the number of photos
/// (issue #22: it was quadratic, 31 s for 100,000). For each count, a folder of that many names
/// hard-linked to one 64x48 JPEG (so the time is Vitrine's per-photo work, not decoding or the
/// disk): half `IMG_00001.jpg`, the rest names that make the natural order work (case, leading
/// zeros, digit runs longer than an Int, spaces and parentheses, accents, a few names that are
/// not photos). Then what `run` does before its first frame: the folder scanned (`PhotoLibrary`:
/// listing, natural order, headers), the viewer made, the first frame drawn. Prints seconds and
/// microseconds per photo for each step, the fastest of three runs (the machine may be busy); the
/// goal is the same per-photo time at every count.
enum ScanBenchmark {
    static func run(arguments: [String]) throws {
        var counts = [1_000, 10_000, 100_000]
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            guard option == "--counts", let value = rest.popFirst() else {
                throw StartupBenchmark.BenchmarkError("usage: vitrine-bench scan [--counts N,N,...]")
            }
            counts = value.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        }
        var logger = Logger(label: "vitrine-bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("vitrine-scan-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let jpeg = try JPEGEncoder().encode(Bitmap(width: 64, height: 48, color: Pixel.rgb(90, 120, 150)))

        print("vitrine-bench scan: folders of hard links to one \(jpeg.count)-byte 64x48 JPEG, screen 1920x1080")
        print("   photos    scan s  scan µs/photo   first frame s  total µs/photo")
        var perPhoto: [Int: Double] = [:]
        for count in counts {
            let folder = (root as NSString).appendingPathComponent("\(count)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try makeFolder(folder, count: count, jpeg: jpeg)
            var settings = Settings()
            settings.photos.directory = folder
            settings.cache.directory = (root as NSString).appendingPathComponent("cache-\(count)")

            var best = (scan: Double.infinity, frame: Double.infinity)
            for _ in 0..<3 {
                let start = now()
                let library = try PhotoLibrary(scanning: folder, order: settings.photos.sort, logger: logger)
                let scanned = now()
                let screen = Size(width: 1920, height: 1080)
                let viewer = Viewer(settings: settings, screenSize: screen, items: library.items, logger: logger, onDecoded: {})
                var canvas = Bitmap(width: 1920, height: 1080)
                viewer.draw(viewer.frame(at: 0), into: &canvas)
                let drawn = now()
                guard library.items.count == count else {
                    throw StartupBenchmark.BenchmarkError("scanned \(library.items.count) photos of \(count)")
                }
                if drawn - start < best.scan + best.frame { best = (scanned - start, drawn - scanned) }
            }
            let total = (best.scan + best.frame) / Double(count) * 1e6
            perPhoto[count] = total
            print(String(format: "%9d  %8.3f  %13.1f  %14.3f  %14.1f", count, best.scan,
                         best.scan / Double(count) * 1e6, best.frame, total))
            try? FileManager.default.removeItem(atPath: folder)
        }
        if let smallest = counts.min(), let largest = counts.max(), smallest < largest,
           let small = perPhoto[smallest], let large = perPhoto[largest] {
            print(String(format: "   per photo, %d photos / %d photos: %.2fx (goal: about 1, linear)", largest, smallest, large / small))
        }
    }

    /// `count` names for `jpeg` in `folder`: half IMG_NNNNN.jpg, half names that stress the order.
    static func makeFolder(_ folder: String, count: Int, jpeg: [UInt8]) throws {
        // A new original every 50,000 names: ext4 allows 65,000 links to a file.
        var original = ""
        for i in 1...count {
            if i % 50_000 == 1 {
                original = (folder as NSString).appendingPathComponent(".original-\(i / 50_000).jpg")  // hidden: not a photo
                try AtomicFile.write(jpeg, to: original)
            }
            let name = (folder as NSString).appendingPathComponent(Self.name(i))
            try systemCall("link", path: name) { link(original, name) }
        }
        // Files the scan must pass over, as in a real folder.
        for other in ["notes.txt", "IMG_00001.jpg.part", ".IMG_00002.jpg.tmp"] {
            try AtomicFile.write(Array("x".utf8), to: (folder as NSString).appendingPathComponent(other))
        }
    }

    private static func name(_ i: Int) -> String {
        switch i % 8 {
        case 0, 1, 2, 3: return String(format: "IMG_%05d.jpg", i)
        case 4: return "img\(i).JPG"
        case 5: return "Holiday \(i % 97) (\(i)).jpeg"
        case 6: return "scan-0000000000000000000000\(i)-été.jpg"
        default: return "DSC\(i)x\(i % 13)y.Jpg"
        }
    }

    private static func now() -> Double { MonotonicClock.now() }
}
