import Blitter
import Foundation
import Geometry
import Linux
import Photos
import PNG
import Scene
import Config

/// `vitrine-bench formats [--source JPEG] [--runs N] [--markdown FILE]`: each still format of SPEC
/// §11 decoded by Vitrine to a 1920x1080 screen image and to a grid thumbnail, against the
/// reference command-line tool of the same library decoding the same file in the same run
/// (issue #23: within 1.2x of the tool's full decode for the screen image, faster than it for a
/// thumbnail where the library can scale).
///
/// The files are made from one 12 MP photo (`--source`, Samples/photos/03-dragonfly.jpg, 4224x3168)
/// by each format's own encoder (heif-enc, avifenc, cwebp; the PNG by Vitrine's encoder). The
/// reference decodes: `heif-convert` and `avifdec` to Y4M (the decoded planes written as they are,
/// no RGB conversion: the cheapest full decode these tools offer), `dwebp` without `-o` (decodes to
/// RGBA in memory and writes nothing), Pillow's `Image.load()` for PNG (timed inside Python, so
/// without the interpreter's start) and `djpeg` to PPM for JPEG. A tool's times include its
/// process start, shown alone as the same tool on a 16x16 file of the format. The runs alternate
/// between the tool and Vitrine's two decodes, so that load from elsewhere weighs on all alike.
enum FormatBenchmark {
    struct Format {
        let name: String
        let fileExtension: String
        /// The encoder's command, given the source JPEG and the output path.
        let encode: ((String, String) -> [String])?
        /// The reference decoder's command for a file, given a scratch output path.
        let reference: (String, String) -> [String]
        let referenceName: String
        let scalesWhileDecoding: Bool
        /// A file of the repository's test files to use instead of an encoding of the source.
        var testFile: String? = nil
        /// What the row is called when it is not the format's name alone.
        var label: String? = nil
    }

    static let formats: [Format] = [
        Format(name: "JPEG", fileExtension: "jpg", encode: nil,
               reference: { ["djpeg", "-outfile", $1 + ".ppm", $0] }, referenceName: "djpeg (PPM)", scalesWhileDecoding: true),
        Format(name: "HEIC", fileExtension: "heic", encode: { ["heif-enc", "-q", "80", "-o", $1, $0] },
               reference: { ["heif-convert", "--quiet", $0, $1 + ".y4m"] }, referenceName: "heif-convert (Y4M)",
               scalesWhileDecoding: false),
        // An iPhone 8 Plus photo as it comes: a grid of 48 tiles with a 240x320 thumbnail item.
        Format(name: "HEIC", fileExtension: "heic", encode: nil,
               reference: { ["heif-convert", "--quiet", $0, $1 + ".y4m"] }, referenceName: "heif-convert (Y4M)",
               scalesWhileDecoding: false, testFile: "Tests/PhotosTests/Formats/heic/phf_arrow.heic", label: "HEIC (iPhone grid)"),
        Format(name: "AVIF", fileExtension: "avif", encode: { ["avifenc", "-s", "8", "-j", "2", "--min", "20", "--max", "30", $0, $1] },
               reference: { ["avifdec", $0, $1 + ".y4m"] }, referenceName: "avifdec (Y4M; libavif)", scalesWhileDecoding: false),
        // The same file through the tool of the library Vitrine decodes AVIF with (SPEC §11: libheif).
        Format(name: "AVIF", fileExtension: "avif", encode: { ["avifenc", "-s", "8", "-j", "2", "--min", "20", "--max", "30", $0, $1] },
               reference: { ["heif-convert", "--quiet", $0, $1 + ".y4m"] }, referenceName: "heif-convert (Y4M; libheif)",
               scalesWhileDecoding: false),
        Format(name: "WebP", fileExtension: "webp", encode: { ["cwebp", "-quiet", "-q", "80", $0, "-o", $1] },
               reference: { path, _ in ["dwebp", "-quiet", path] }, referenceName: "dwebp (no output)",
               scalesWhileDecoding: true),
        Format(name: "PNG", fileExtension: "png", encode: nil,
               reference: { path, _ in ["python3", "-c", pillowLoop, path] }, referenceName: "Pillow Image.load()",
               scalesWhileDecoding: false),
    ]

    /// Pillow's decode of one file, timed in the interpreter: prints the milliseconds of one load.
    static let pillowLoop = """
        import sys, time
        from PIL import Image
        t = time.monotonic(); im = Image.open(sys.argv[1]); im.load(); print((time.monotonic() - t) * 1000)
        """

    struct Row {
        let format: String
        let fileBytes: Int
        let size: ImageSize
        let reference: Double?
        let referenceStart: Double?
        let referenceName: String
        let screen: Double
        let thumbnail: Double
        let scalesWhileDecoding: Bool
    }

    static func run(arguments: [String]) throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let source = option("--source", in: arguments) ?? packageRoot + "/Samples/photos/03-dragonfly.jpg"
        let runs = max(3, Int(option("--runs", in: arguments) ?? "") ?? 9)
        let scratchRoot = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = (scratchRoot as NSString).appendingPathComponent("vitrine-bench-formats-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let decoder = try PhotoDecoder(options: DecodeOptions(maxMegapixels: 100))
        let sourceInfo = try decoder.info(path: source)
        let screen = ImageSize(width: 1920, height: 1080)
        let grid = GridView(parameters: Settings().scene.grid, screenSize: Size(width: 1920, height: 1080), photoCount: 0)
        let cellSide = Int(grid.cellSize.rounded(.up))
        print("vitrine-bench formats: \(source) (\(sourceInfo.size)) in each format; screen \(screen), "
              + "grid cells of \(cellSide) px; \(runs) runs each, alternating")

        // A 16x16 file of each format: the reference tool's start alone.
        let tiny = (folder as NSString).appendingPathComponent("tiny-source.jpg")
        try AtomicFile.write(try JPEGEncoder().encode(Bitmap(width: 16, height: 16, color: Pixel.rgb(90, 120, 150))), to: tiny)
        // The PNG is Vitrine's own encoding of the full-size decode.
        let fullSize = try decoder.decode(path: source, to: sourceInfo.size).image.bitmap

        var rows: [Row] = []
        for format in formats {
            let path = (folder as NSString).appendingPathComponent("photo.\(format.fileExtension)")
            let tinyPath = (folder as NSString).appendingPathComponent("tiny.\(format.fileExtension)")
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: tinyPath)
            if let testFile = format.testFile {
                try FileManager.default.copyItem(atPath: packageRoot + "/" + testFile, toPath: path)
                guard runTool(format.encode?(tiny, tinyPath) ?? ["heif-enc", "-q", "80", "-o", tinyPath, tiny]) != nil else { continue }
            } else {
            switch format.name {
            case "JPEG":
                try FileManager.default.copyItem(atPath: source, toPath: path)
                try FileManager.default.copyItem(atPath: tiny, toPath: tinyPath)
            case "PNG":
                try PNGEncoder.write(fullSize, to: path)
                try PNGEncoder.write(Bitmap(width: 16, height: 16, color: Pixel.rgb(90, 120, 150)), to: tinyPath)
            default:
                guard let encode = format.encode else { continue }
                guard runTool(encode(source, path)) != nil, runTool(encode(tiny, tinyPath)) != nil else {
                    print("\(format.name): \(encode(source, path)[0]) failed or is missing (scripts/install-deps installs it); skipped")
                    continue
                }
            }
            }
            let info: PhotoInfo
            do {
                info = try decoder.info(path: path)
            } catch {
                print("\(format.name): Vitrine cannot read it yet: \(error)")
                continue
            }
            let screenTarget = info.size.decodeTarget(.screen(screen, maxZoom: 1))
            // The decode before a panorama's crop (the same size up to 2:1).
            let thumbnailTarget = info.size.thumbnailDecodeSize(cellSide: cellSide)
            let scratch = (folder as NSString).appendingPathComponent("out")
            var reference: [Double] = [], referenceStart: [Double] = [], screenTimes: [Double] = [], thumbnailTimes: [Double] = []
            var failed = false
            for run in 0...runs {  // the first round warms the caches and is not counted
                let tool = referenceTime(format, path: path, scratch: scratch)
                let toolStart = referenceTime(format, path: tinyPath, scratch: scratch)
                let t0 = Stopwatch.now()
                do {
                    _ = try decoder.decode(path: path, to: screenTarget)
                } catch {
                    print("\(format.name): \(error)")
                    failed = true
                    break
                }
                let t1 = Stopwatch.now()
                _ = try? decoder.decode(path: path, to: thumbnailTarget)
                let t2 = Stopwatch.now()
                guard run > 0 else { continue }
                if let tool { reference.append(tool) }
                if let toolStart { referenceStart.append(toolStart) }
                screenTimes.append((t1 - t0) * 1000)
                thumbnailTimes.append((t2 - t1) * 1000)
            }
            if failed { continue }
            let fileBytes = (try? FileStatus(path: path).size) ?? 0
            rows.append(Row(format: format.label ?? format.name, fileBytes: fileBytes, size: info.size,
                            reference: reference.isEmpty ? nil : median(reference),
                            referenceStart: referenceStart.isEmpty ? nil : median(referenceStart),
                            referenceName: format.referenceName, screen: median(screenTimes), thumbnail: median(thumbnailTimes),
                            scalesWhileDecoding: format.scalesWhileDecoding))
        }
        let table = markdownTable(rows, screen: screen, cellSide: cellSide)
        print(table)
        if let markdown = option("--markdown", in: arguments) {
            let date = ISO8601DateFormatter().string(from: Date())
            let text = "## Still formats against their reference decoders\n\n"
                + "Written by `vitrine-bench formats --markdown docs/benchmark.md` (release build), \(date). "
                + "The source is \(URL(fileURLWithPath: source).lastPathComponent) (\(sourceInfo.size)), "
                + "encoded by each format's own encoder (heif-enc -q 80, avifenc -s 8 with quantizers 20-30, "
                + "cwebp -q 80; the PNG by Vitrine). The reference tools' times include their process start; "
                + "the figure in brackets is that start alone (the tool on a 16x16 file). \(runs) runs, alternating.\n\n"
                + table
            try MarkdownSections.write("formats", text: text, to: markdown)
            print("written to \(markdown)")
        }
    }

    /// The tool's time for one decode in ms (Pillow's own figure for PNG), or nil if it failed.
    static func referenceTime(_ format: Format, path: String, scratch: String) -> Double? {
        let command = format.reference(path, scratch)
        guard let (seconds, output) = runTool(command) else { return nil }
        if format.name == "PNG" { return Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return seconds * 1000
    }

    /// Runs `command` (found on PATH) and returns its wall time and standard output, or nil when it
    /// could not start or failed.
    static func runTool(_ command: [String]) -> (seconds: Double, output: String)? {
        guard let name = command.first else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + command.dropFirst()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = Stopwatch.now()
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = Stopwatch.now() - start
        guard process.terminationStatus == 0 else { return nil }
        return (seconds, String(decoding: output, as: UTF8.self))
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    static func markdownTable(_ rows: [Row], screen: ImageSize, cellSide: Int) -> String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "—" }
        func ratio(_ ours: Double, _ theirs: Double?) -> String {
            theirs.map { String(format: "%.2fx", ours / $0) } ?? "—"
        }
        var lines = [
            "| format | file | size | reference tool | its decode ms (its start alone) | Vitrine to the screen ms | ratio | goal | Vitrine to a thumbnail ms | ratio | goal |",
            "|---|---:|---|---|---:|---:|---:|---|---:|---:|---|",
        ]
        for row in rows {
            let screenGoal = row.reference.map { row.screen <= 1.2 * $0 ? "<= 1.2x: met" : "<= 1.2x: MISSED" } ?? ""
            let thumbnailGoal = row.scalesWhileDecoding
                ? (row.reference.map { row.thumbnail < $0 ? "< 1x: met" : "< 1x: MISSED" } ?? "") : ""
            lines.append("| \(row.format) | \(String(format: "%.2f MB", Double(row.fileBytes) / 1e6)) | \(row.size) | "
                         + "\(row.referenceName) | \(ms(row.reference)) (\(ms(row.referenceStart))) | \(ms(row.screen)) | "
                         + "\(ratio(row.screen, row.reference)) | \(screenGoal) | \(ms(row.thumbnail)) | "
                         + "\(ratio(row.thumbnail, row.reference)) | \(thumbnailGoal) |")
        }
        lines.append("")
        lines.append("Screen image: aspect-fit in \(screen); thumbnail: aspect-fill of a \(cellSide) px cell. Medians.")
        return lines.joined(separator: "\n") + "\n"
    }
}
