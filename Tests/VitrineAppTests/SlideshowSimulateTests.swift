import Foundation
import Geometry
import TestSupport
import Testing
import Touch

/// The slideshow's transitions replayed by `vitrine simulate`, the real executable, read back from
/// the trace's "pages" (each photo shown, its rect and alpha; rects to 0.01 px, alphas to 0.0001).
@Suite(.serialized) struct SlideshowSimulateTests {
    struct Page: Equatable {
        var index: Int
        var rect: Rect
        var alpha: Double
    }

    struct Line {
        var t: Double
        var mode: String
        var index: Int?
        var photo: Rect?
        var pages: [Page]
    }

    static let screen = Size(width: 800, height: 480)

    /// Runs simulate on 800x480 with `[kiosk]` set to `kiosk` over `photos` (sample file names,
    /// copied in this order), replaying `frames` if any; returns the trace.
    static func trace(_ kiosk: String, photos: [String], duration: Double, frames: [TouchFrame] = []) throws -> [Line] {
        try run(kiosk, photos: photos, duration: duration, frames: frames).lines
    }

    /// The trace, and the frames drawn (`--stats`' "frames N").
    static func run(_ kiosk: String, photos: [String], duration: Double, frames: [TouchFrame] = []) throws
        -> (lines: [Line], drawn: Int) {
        let folder = try TemporaryDirectory("slideshow")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("photos"), withIntermediateDirectories: true)
        for (n, name) in photos.enumerated() {
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/" + name,
                                             toPath: folder.file("photos/\(n < 10 ? "0" : "")\(n)-\(name)"))
        }
        try "[kiosk]\n\(kiosk)\n".write(toFile: folder.file("vitrine.toml"), atomically: true, encoding: .utf8)
        var arguments = ["simulate", "--size", "800x480", "--photos", folder.file("photos"), "--config", folder.file("vitrine.toml"),
                         "--duration", String(duration), "--trace", folder.file("trace.jsonl"), "--stats"]
        if !frames.isEmpty {
            let text = EvemuWriter.touchscreen(name: "Vitrine synthetic touchscreen", screen: screen, frames: frames,
                                               comment: "Synthetic: SlideshowSimulateTests")
            try text.write(toFile: folder.file("touch.evemu"), atomically: true, encoding: .utf8)
            arguments += ["--replay", folder.file("touch.evemu")]
        }
        let result = try ProcessResult.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        func rect(_ object: Any?) -> Rect? {
            guard let p = object as? [String: Any], let x = p["x"] as? Double, let y = p["y"] as? Double,
                  let w = p["w"] as? Double, let h = p["h"] as? Double else { return nil }
            return Rect(x: x, y: y, width: w, height: h)
        }
        let counted = result.stdout.range(of: "frames ").map { result.stdout[$0.upperBound...].prefix { $0.isNumber } }
        let drawn = try #require(counted.flatMap { Int($0) }, "\(result.stdout)")
        let lines = try String(contentsOfFile: folder.file("trace.jsonl"), encoding: .utf8).split(separator: "\n").map { text in
            let line = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let pages = (line["pages"] as? [[String: Any]] ?? []).map {
                Page(index: $0["index"] as? Int ?? -1, rect: rect($0) ?? .zero, alpha: $0["alpha"] as? Double ?? -1)
            }
            return Line(t: try #require(line["t"] as? Double), mode: try #require(line["mode"] as? String),
                        index: line["index"] as? Int, photo: rect(line["photo"]), pages: pages)
        }
        return (lines, drawn)
    }

    /// Crossfade: mid-way the two photos' alphas are 0.5 each and sum to 1; the slideshow's frames
    /// are drawn only while a transition runs (a still slide draws nothing).
    @Test func crossfadeAlphasSumToOneAndAStillSlideDrawsNothing() throws {
        let (lines, drawn) = try Self.run("idle_timeout = 1\nidle_action = \"slideshow\"\nslideshow_interval = 2\n"
                                   + "slideshow_transition = \"crossfade\"\ntransition_duration = 0.5",
                                   photos: ["01-lakeside.jpg", "03-dragonfly.jpg", "04-flower.jpg", "12-lakeside-detail.jpg"],
                                   duration: 10)
        let slides = lines.filter { $0.mode == "slideshow" }
        #expect(!slides.isEmpty)
        #expect(slides.allSatisfy { $0.pages.count >= 1 && $0.photo != nil })
        let fades = slides.filter { $0.pages.count == 2 }
        #expect(fades.allSatisfy { abs($0.pages[0].alpha + $0.pages[1].alpha - 1) <= 0.0002 })
        // Each fade passes 0.5 mid-way (the ease-in-out curve's middle), the incoming photo the index.
        #expect(fades.contains { abs($0.pages[1].alpha - 0.5) < 0.05 && $0.index == $0.pages[1].index })
        let indices = slides.compactMap(\.index).reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
        #expect(indices.starts(with: [0, 1, 2, 3, 0]), "\(indices)")
        // 60 frames a second during each 0.5 s fade, none in the 1.5 s between them: the trace has
        // every tick's frame, the same picture there, and --stats counts the frames drawn.
        for still in [3.6...4.9, 5.6...6.9, 7.6...8.9] {
            let frames = slides.filter { still.contains($0.t) }
            #expect(frames.count > 60 && frames.allSatisfy { $0.pages == frames[0].pages && $0.pages.count == 1 })
        }
        #expect(drawn < 4 * 35 + 60, "\(drawn) frames drawn in 10 s")
    }

    /// Ken Burns: a slide starts at its fit and reaches 1.1 times it as its outgoing crossfade
    /// ends (interval plus transition after it came in), and it draws every frame.
    @Test func kenBurnsZoomsEachSlideFromFitToOnePointOne() throws {
        let (lines, drawn) = try Self.run("idle_timeout = 1\nidle_action = \"slideshow\"\nslideshow_interval = 2\n"
                                   + "slideshow_transition = \"ken_burns\"\ntransition_duration = 1",
                                   photos: ["01-lakeside.jpg", "02-portrait.jpg", "03-dragonfly.jpg", "04-flower.jpg"],
                                   duration: 9)
        // Photo 2 (4:3, 640x480 at fit on 800x480) comes in with the second slide change and is gone
        // when the third change's fade ends.
        let shown = lines.filter { $0.mode == "slideshow" }.compactMap { line in line.pages.first { $0.index == 2 } }
        let first = try #require(shown.first), last = try #require(shown.last)
        #expect(abs(first.rect.width - 640) < 0.5 && first.alpha < 0.01, "\(first)")
        #expect(abs(last.rect.width - 704) < 1.5 && abs(last.rect.height - 528) < 1.5, "\(last)")
        // The zoom is about the photo's centre (the screen's): the rect stays centred.
        #expect(shown.allSatisfy { abs($0.rect.midX - 400) < 0.02 && abs($0.rect.midY - 240) < 0.02 })
        // Always moving: a frame drawn every 1/60 s from the first slide on (about 1.5 s to 9 s).
        let slides = lines.filter { $0.mode == "slideshow" }
        #expect(zip(slides, slides.dropFirst()).allSatisfy { $0.pages != $1.pages })
        #expect(drawn > 7 * 60, "\(drawn) frames drawn in 9 s")
    }

    /// Portrait pairs: photos 1 and 2 (both portrait) side by side, each 320x480 with 20 px between,
    /// centred; a tap on the right one opens it in the pager, growing from its half to its fit.
    @Test func aPortraitPairAndATapOnItsRightPhoto() throws {
        // A lift at 0.5 s (the replay's first event): photo 0 opens at 1.5 s, the pair comes in at
        // 3.5 s; a tap on the right photo at 4.5 s.
        var frames = [TouchFrame(time: 0, contacts: [])]
        frames += SyntheticGesture.tap(at: Point(x: 570, y: 240), time: 4)
        let lines = try Self.trace("idle_timeout = 1\nidle_action = \"slideshow\"\nslideshow_interval = 2\n"
                                   + "slideshow_transition = \"crossfade\"\ntransition_duration = 0.5\nportrait_pairs = true",
                                   photos: ["01-lakeside.jpg", "07-portrait-exif8.jpg", "08-dragonfly-wing.jpg", "04-flower.jpg"],
                                   duration: 6, frames: frames)
        let pair = try #require(lines.last { $0.t < 4.45 && $0.mode == "slideshow" })
        #expect(pair.pages == [Page(index: 1, rect: Rect(x: 70, y: 0, width: 320, height: 480), alpha: 1),
                               Page(index: 2, rect: Rect(x: 410, y: 0, width: 320, height: 480), alpha: 1)])
        #expect(pair.index == 1)
        let tapped = try #require(lines.first { $0.t >= 4.45 && $0.mode != "slideshow" })
        #expect(tapped.mode == "pager" && tapped.index == 2)
        #expect(tapped.photo == Rect(x: 410, y: 0, width: 320, height: 480))
        // (The slideshow starts again 1 s after the tap: idle_timeout.)
        let end = try #require(lines.last { $0.t < 5.4 })
        #expect(end.mode == "pager" && end.index == 2)
        #expect(end.photo == Rect(x: 240, y: 0, width: 320, height: 480))
    }
}
