import Foundation
import Geometry
import Scene
import TestSupport
import Testing
@testable import VitrineApp

/// Captions as an integrator checks them: photos captioned in each source, the slideshow showing
/// them, read back through `simulate`'s trace and snapshots.
@Suite(.serialized) struct CaptionSimulateTests {
    static let expected = [
        "Harbour at dusk\nThe last ferry leaves at nine.",  // 1: sidecar (beats its own XMP)
        "XMP title\nXMP description",                      // 2: XMP
        "蜻蜓\n池塘边的蜻蜓",                                 // 3: IPTC
        "Camera description",                              // 4: EXIF
    ]

    private func makePhotos(_ folder: TemporaryDirectory) throws {
        let photos: [(String, [[UInt8]])] = [
            ("1.jpg", [CaptionJPEG.xmp(title: "hidden by the sidecar", description: nil)]),
            ("2.jpg", [CaptionJPEG.exif(description: Array("not this".utf8)), CaptionJPEG.xmp(title: "XMP title", description: "XMP description")]),
            ("3.jpg", [CaptionJPEG.iptc(name: "蜻蜓", caption: "池塘边的蜻蜓")]),
            ("4.jpg", [CaptionJPEG.exif(description: Array("Camera description".utf8))]),
            ("5.jpg", []),
        ]
        for (name, segments) in photos {
            try Data(CaptionJPEG.photo(segments)).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        try "Harbour at dusk\nThe last ferry leaves at nine.\n".write(toFile: folder.file("1.txt"), atomically: true, encoding: .utf8)
    }

    private func run(_ folder: TemporaryDirectory, captions: String, snapshot: String? = nil) throws -> [[String: Any]] {
        let config = folder.file("vitrine.toml")
        try "[kiosk]\nidle_timeout = 1\nidle_action = \"slideshow\"\nslideshow_interval = 2\n[captions]\n\(captions)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        var arguments = ["simulate", "--size", "480x300", "--photos", folder.path, "--config", config,
                         "--duration", "11.5", "--trace", folder.file("trace.jsonl")]
        if let snapshot { arguments += ["--snapshot", snapshot, "--out", folder.file("out")] }
        let result = try ProcessResult.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try String(contentsOfFile: folder.file("trace.jsonl"), encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func theTraceShowsEachPhotosCaptionFromItsSource() throws {
        let folder = try TemporaryDirectory("caption-sources")
        defer { folder.remove() }
        try makePhotos(folder)
        let lines = try run(folder, captions: "show = true")
        var seen: [Int: Set<String>] = [:]
        for line in lines {
            #expect(line.keys.contains("caption"))
            guard ["pager", "slideshow"].contains(line["mode"] as? String), let index = line["index"] as? Int else {
                if line["mode"] as? String == "grid" { #expect(line["caption"] is NSNull) }
                continue
            }
            seen[index, default: []].insert((line["caption"] as? String) ?? "null")
        }
        for (index, text) in Self.expected.enumerated() {
            #expect(seen[index] == [text], "photo \(index + 1): \(seen[index] ?? [])")
        }
        #expect(seen[4] == ["null"], "the photo without text has no caption")
    }

    @Test func theSnapshotShowsTheCaptionAndShowFalseHidesIt() throws {
        let folder = try TemporaryDirectory("caption-snapshot")
        defer { folder.remove() }
        try makePhotos(folder)
        _ = try run(folder, captions: "show = true", snapshot: "2.5")
        let shown = try PNGTestDecoder.decode(Array(Data(contentsOf: URL(fileURLWithPath: folder.file("out/snapshot-2.500.png")))))
        let hiddenLines = try run(folder, captions: "show = false", snapshot: "2.5")
        let hidden = try PNGTestDecoder.decode(Array(Data(contentsOf: URL(fileURLWithPath: folder.file("out/snapshot-2.500.png")))))
        #expect(hiddenLines.allSatisfy { $0["caption"] is NSNull })
        // The top of the picture is the same; the bottom has the caption's dark band and white text.
        #expect(Array(shown.pixels[0..<(480 * 100)]) == Array(hidden.pixels[0..<(480 * 100)]))
        let bottom = (260..<300).flatMap { y in (0..<480).map { x in (shown[x, y], hidden[x, y]) } }
        #expect(bottom.contains { $0.0 != $0.1 })
        #expect(bottom.contains { $0.0 & 0xFF > 0xE0 && $0.1 & 0xFF < 0xC0 })  // white text where the photo is not white
    }

    /// A caption is any text: the trace line stays one line of valid JSON.
    @Test func theTraceQuotesTheCaption() throws {
        let frame = SceneFrame(time: 1, mode: .pager, currentIndex: 2, gridScroll: 0, drawsGrid: false, gridCells: [],
                               hiddenIndex: nil, backgroundAlpha: 1,
                               pages: [PhotoPlacement(index: 2, rect: Rect(x: 0, y: 0, width: 10, height: 10))], movingPhoto: nil)
        let text = "A \"quoted\" \\ title\nשלום\u{1B}[31m"
        let line = TraceWriter.line(for: frame, photos: 3, screenOn: true, caption: text)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["caption"] as? String == text)
        let none = try #require(try JSONSerialization.jsonObject(with: Data(TraceWriter.line(for: frame, photos: 3, screenOn: true).utf8)) as? [String: Any])
        #expect(none["caption"] is NSNull)
    }
}
