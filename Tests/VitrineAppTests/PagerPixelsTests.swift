import Blitter
import Colour
import Config
import Foundation
import Geometry
import Logging
import Photos
import Rendering
import TestSupport
import Testing
@testable import VitrineApp

/// What the pager shows is the photo, pixel for pixel: every HEIF, AVIF, WebP and PNG file of the
/// formats corpus, opened in the pager of a screen one pixel wider than the photo (so the pager
/// shows it at its own size, no resampling on either side, but centred half a pixel off the pixel
/// grid, where a page drawn where the arithmetic puts it is resampled: softer and shifted, as
/// `lhf_example.heic` was on a 1280x800 screen), against the decode of the format's own library
/// tool: libheif's
/// heif-convert for HEIF and AVIF (the library Vitrine decodes both with; avifdec of Debian's
/// libavif 0.11 leaves irot, imir and clap to the caller), libwebp's dwebp, and FFmpeg's PNG
/// decoder (another implementation than libspng). Alpha is composed over black on the reference
/// side, as Vitrine shows it.
///
/// Tolerance: a mean difference of at most 1 of 255 and 99.9% of the samples within 3. Both
/// sides decode with the same library (HEIF, AVIF, WebP) or exactly (PNG); what differs is
/// rounding: 16-bit samples (PNG, heif-convert's PNG of 10- and 12-bit images) made 8-bit by
/// FFmpeg and by libspng or libheif, and alpha multiplied in with other rounding, each at most 1
/// a sample (a 16-bit grey PNG: every sample can be 1 off, a mean of 0.6); a lossy WebP's YUV to RGB conversion, where dwebp and Vitrine's libwebp call may use
/// different (fancy or simple) chroma upsampling, up to a few at sharp colour edges. A picture
/// shifted by half a pixel (2.7 for `lhf_example.heic`), by a pixel (11.8), decoded from a smaller
/// image or resampled is far outside it. Files with a colour
/// description that Vitrine converts to sRGB (an ICC profile, nclx other than sRGB) are compared
/// with the reference converted by the same lcms2 transform, so the test is about where the
/// pixels come from, not colour management (ColourTests hold that); so is a WebP's EXIF orientation
/// applied to dwebp's picture by Vitrine's `Orientation`. FFmpeg ignores the tRNS colour of a grey
/// PNG of fewer than 8 bits: the test applies it.
///
/// The repository's copies (Tests/PhotosTests/Formats) run every time; VITRINE_FORMATS_CORPUS
/// names a whole corpus folder (the shared corpus of real files, `VITRINE_SHARED_CORPUS`) to run over
/// instead. Damaged files (`bad_`, and PngSuite's `x`) are not compared; a file neither side can
/// decode (an image sequence without a still) and an animated WebP (dwebp decodes stills only) are
/// left out, named; a file only one side decodes fails.
@Suite(.serialized, .enabled(if: ReferenceDecoders.missing == nil, "\(ReferenceDecoders.missing ?? "")"))
struct PagerPixelsTests {

    static let meanTolerance = 1.0
    static let sampleTolerance = 3
    /// The share of samples that may differ by more than `sampleTolerance`.
    static let outlierShare = 0.001

    static var corpus: String {
        ProcessInfo.processInfo.environment["VITRINE_FORMATS_CORPUS"]
            ?? TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats").path
    }

    /// Every HEIF, AVIF, WebP and PNG file under the corpus folder, damaged ones (named `bad_`) aside.
    static func files() -> [String] {
        let extensions: Set = ["heic", "heif", "avif", "avifs", "webp", "png"]
        guard let walker = FileManager.default.enumerator(atPath: corpus) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard extensions.contains((name as NSString).pathExtension.lowercased()), !name.hasPrefix("bad_"),
                  !name.hasPrefix("ps_x"), !relative.contains("references/") else { continue }
            found.append((corpus as NSString).appendingPathComponent(relative))
        }
        return found.sorted()
    }

    @Test func everyFileShowsInThePagerAsItsLibraryDecodesIt() throws {
        let files = Self.files()
        #expect(files.count >= 20, "\(Self.corpus) has \(files.count) files")
        var failures: [String] = [], leftOut: [String] = [], compared = 0
        var worst: (mean: Double, file: String) = (0, "")
        for file in files {
            let name = (file as NSString).lastPathComponent
            if Self.isAnimatedWebP(file) {
                leftOut.append(name + " (animated)")
                continue
            }
            let reference: Bitmap?
            do {
                reference = try Self.reference(file)
            } catch {
                reference = nil
            }
            let shown = try Self.pager(file)
            switch (shown, reference) {
            case (nil, nil):
                leftOut.append(name)
                continue
            case (nil, _):
                failures.append("\(name): the library decodes it, the pager shows nothing")
                continue
            case (_, nil):
                failures.append("\(name): the pager shows it, the library's tool cannot decode it")
                continue
            case let (shown?, reference?):
                let expected = shown.convert(reference)
                guard shown.picture.width == expected.width, shown.picture.height == expected.height else {
                    failures.append("\(name): the pager shows \(shown.picture.width)x\(shown.picture.height), the library \(expected.width)x\(expected.height)")
                    continue
                }
                if name == "lhf_example.heic" { print("pager pixels: lhf_example.heic mean difference \(Self.difference(shown.picture, expected).mean)") }
                let (mean, outliers) = Self.difference(shown.picture, expected)
                compared += 1
                if mean > worst.mean { worst = (mean, name) }
                if mean > Self.meanTolerance || outliers > Self.outlierShare {
                    failures.append("\(name): mean difference \(mean), \(outliers * 100)% of the samples off by more than \(Self.sampleTolerance)")
                }
            }
        }
        print("pager pixels: \(compared) files compared, the largest mean difference \(worst.mean) (\(worst.file)); left out (neither side decodes them): \(leftOut.joined(separator: ", "))")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(compared >= 20)
    }

    /// The mean absolute difference of the samples (0...255) and the share of samples off by more
    /// than `sampleTolerance`.
    static func difference(_ a: Bitmap, _ b: Bitmap) -> (mean: Double, outliers: Double) {
        var total = 0, outliers = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for shift in [16, 8, 0] {
                    let d = abs(Int(p >> UInt32(shift) & 0xFF) - Int(q >> UInt32(shift) & 0xFF))
                    total += d
                    if d > sampleTolerance { outliers += 1 }
                }
            }
        }
        let samples = Double(3 * a.width * a.height)
        return (Double(total) / samples, Double(outliers) / samples)
    }

    // MARK: The pager's side

    struct Shown {
        var picture: Bitmap
        /// Converts a reference as Vitrine converted the photo (its colour description to sRGB).
        var convert: (Bitmap) -> Bitmap
    }

    /// The photo opened in the pager of a screen its own size, once the opening has ended and its
    /// screen image is decoded, as `run` and `simulate` draw it; nil when the photo is not shown
    /// (the scan or the decode refused it).
    static func pager(_ file: String) throws -> Shown? {
        let folder = try TemporaryDirectory("pager-pixels")
        defer { folder.remove() }
        let name = (file as NSString).lastPathComponent
        try FileManager.default.createSymbolicLink(atPath: folder.file(name), withDestinationPath: file)
        var settings = Settings()
        settings.photos.directory = folder.path
        settings.captions.show = false
        settings.cache.directory = nil
        var logger = Logger(label: "pager-pixels")
        logger.logLevel = .critical
        let items = try PhotoFolder.scan(settings.photos, logger: logger)
        guard let item = items.first else { return nil }
        // The decoder's own answer: the size and colour description (nil: shown as decoded).
        let decoded: DecodedImage
        do {
            decoded = try PhotoDecoder().decode(path: item.path, to: item.picture.size).image
        } catch {
            return nil
        }
        // One column wider: the photo fits at its own size, its page centred at x = 0.5.
        let size = Size(width: Double(item.picture.size.width + 1), height: Double(item.picture.size.height))
        let viewer = Viewer(settings: settings, screenSize: size, items: items, logger: logger, onDecoded: {})
        let session = KioskSession(viewer: viewer, settings: settings, refreshPeriod: 1 / 60, now: 0, zone: .system)
        _ = session.dispatch(.remote(.open(0)), now: 0, wall: 0)
        var frame = viewer.frame(at: 0)
        var n = 0
        repeat {
            n += 1
            let t = Double(n) / 60
            _ = session.dispatch(.time, now: t, wall: t)
            _ = session.imagesArrived(now: t)
            if case let .draw(drawn, moving) = session.nextStep(now: t, flipPending: false, nextVblank: t) {
                _ = session.presented(drawn, at: t, composeTime: 0, moving: moving)
                frame = drawn
            } else {
                frame = viewer.frame(at: t)
            }
        } while viewer.scene.isAnimating && n < 600
        guard frame.mode == .pager else { return nil }
        viewer.store.waitUntilSettled()
        var canvas = Bitmap(width: item.picture.size.width + 1, height: item.picture.size.height)
        _ = viewer.draw(frame, into: &canvas)
        // The page on whole pixels, from the left (half the spare column, rounded down).
        var picture = Bitmap(width: item.picture.size.width, height: item.picture.size.height)
        for y in 0..<picture.height {
            for x in 0..<picture.width { picture[x, y] = canvas[x, y] & 0xFF_FFFF }
        }
        let colour = decoded.colour, orientation = decoded.header.orientation, converter = try ColourConverter()
        return Shown(picture: picture) { reference in
            var converted = orientation.apply(to: reference)
            _ = try? converter.convertToSRGB(&converted, from: colour)
            return converted
        }
    }

    // MARK: The library's side

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The file decoded by its format's own tool, alpha composed over black.
    static func reference(_ file: String) throws -> Bitmap {
        let folder = try TemporaryDirectory("pager-reference")
        defer { folder.remove() }
        let pam = folder.file("out.pam")
        switch (file as NSString).pathExtension.lowercased() {
        case "webp":
            try run("/usr/bin/dwebp", [file, "-pam", "-o", pam])
        case "png":
            try ffmpegPAM(file, pam)
            return try overBlack(greyTransparency(readPAM(Array(Data(contentsOf: URL(fileURLWithPath: pam)))), png: file))
        default:
            // heif-convert writes every top-level image (out-1.png, out-2.png, ... when there are
            // several); the primary is the one heif-info marks.
            try run("/usr/bin/heif-convert", ["--quiet", file, folder.file("out.png")])
            let info = try run("/usr/bin/heif-info", [file])
            let images = info.split(separator: "\n").filter { $0.hasPrefix("image: ") }
            let primary = (images.firstIndex { $0.contains("primary") } ?? 0) + 1
            let png = FileManager.default.fileExists(atPath: folder.file("out.png")) ? folder.file("out.png") : folder.file("out-\(primary).png")
            try ffmpegPAM(png, pam)
        }
        return try overBlack(readPAM(Array(Data(contentsOf: URL(fileURLWithPath: pam)))))
    }

    static func isAnimatedWebP(_ file: String) -> Bool {
        guard (file as NSString).pathExtension.lowercased() == "webp",
              let info = try? ProcessResult.run(["-info", file], executable: "/usr/bin/webpmux") else { return false }
        return info.stdout.contains("Features present: animation")
    }

    /// A grey PNG of 1, 2 or 4 bits with a tRNS chunk: the pixels of its transparent grey made
    /// transparent (FFmpeg leaves them opaque; 8 and 16 bits it handles).
    static func greyTransparency(_ pam: (width: Int, height: Int, depth: Int, samples: ArraySlice<UInt8>), png: String) throws
        -> (width: Int, height: Int, depth: Int, samples: ArraySlice<UInt8>) {
        let chunks = try PNGTestDecoder.chunks(Array(Data(contentsOf: URL(fileURLWithPath: png))))
        guard let header = chunks.first(where: { $0.type == "IHDR" })?.data, header.count >= 10, header[9] == 0,
              header[8] < 8, let transparent = chunks.first(where: { $0.type == "tRNS" })?.data, transparent.count >= 2,
              pam.depth == 4 else { return pam }
        let bits = Int(header[8])
        let grey = UInt8((Int(transparent[0]) << 8 | Int(transparent[1])) * 255 / ((1 << bits) - 1))
        var samples = Array(pam.samples)
        for at in stride(from: 0, to: samples.count - 3, by: 4) where samples[at] == grey && samples[at + 1] == grey && samples[at + 2] == grey {
            samples[at + 3] = 0
        }
        return (pam.width, pam.height, pam.depth, samples[...])
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ProcessResult.run(arguments, executable: tool)
        guard result.status == 0 else { throw ToolFailure(description: "\(tool): \(result.stderr)") }
        return result.stdout
    }

    /// The first image of a PNG (the default image of an APNG) as 8-bit RGBA.
    static func ffmpegPAM(_ png: String, _ pam: String) throws {
        try run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", png, "-frames:v", "1", "-pix_fmt", "rgba", "-f", "image2", "-c:v", "pam", pam])
    }

    /// A PAM of RGB_ALPHA or RGB tuples, 8-bit.
    static func readPAM(_ bytes: [UInt8]) throws -> (width: Int, height: Int, depth: Int, samples: ArraySlice<UInt8>) {
        guard let end = bytes.firstRange(of: Array("ENDHDR\n".utf8)) else { throw ToolFailure(description: "not a PAM") }
        var fields: [String: Int] = [:]
        for line in String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], let depth = fields["DEPTH"], fields["MAXVAL"] == 255,
              [3, 4].contains(depth), bytes.count - end.upperBound >= width * height * depth else {
            throw ToolFailure(description: "a PAM Vitrine's test does not read: \(fields)")
        }
        return (width, height, depth, bytes[end.upperBound...])
    }

    /// Each pixel's colour multiplied by its alpha (over black), as Vitrine composes it.
    static func overBlack(_ pam: (width: Int, height: Int, depth: Int, samples: ArraySlice<UInt8>)) -> Bitmap {
        var bitmap = Bitmap(width: pam.width, height: pam.height)
        let base = pam.samples.startIndex
        for y in 0..<pam.height {
            for x in 0..<pam.width {
                let at = base + (y * pam.width + x) * pam.depth
                let alpha = pam.depth == 4 ? UInt32(pam.samples[at + 3]) : 255
                let r = (UInt32(pam.samples[at]) * alpha + 127) / 255
                let g = (UInt32(pam.samples[at + 1]) * alpha + 127) / 255
                let b = (UInt32(pam.samples[at + 2]) * alpha + 127) / 255
                bitmap[x, y] = r << 16 | g << 8 | b
            }
        }
        return bitmap
    }
}

/// The formats' own tools the pager is compared with (scripts/install-deps installs them).
enum ReferenceDecoders {
    static let tools = ["heif-convert", "heif-info", "dwebp", "webpmux", "ffmpeg"]
    static let missing: String? = {
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }
        return missing.isEmpty ? nil : "needs \(missing.joined(separator: ", ")) (scripts/install-deps)"
    }()
}
