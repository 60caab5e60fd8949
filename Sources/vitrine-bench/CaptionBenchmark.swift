import Blitter
import Foundation
import Linux
import Config
import Geometry
import Photos
import Rendering
import Scene

/// What a caption costs (SPEC §10): the pager at rest drawn with a three-line caption against the
/// same frame without one (goal: at most +0.1 ms at 1080p once the caption has been drawn), and the
/// first frame of a caption never seen, which shapes the text and rasterises its glyphs (goal:
/// within one frame, 16.7 ms), for Latin and for CJK text from a fallback font.
enum CaptionBenchmark {
    static let goalMilliseconds = 0.1
    static let frameBudget = 1000.0 / 60

    static let latin = Caption(title: "Lakeside at dawn",
                               description: "Mist over the water before the first boats went out; the far shore still in shadow, "
                                   + "the reeds along the bank catching the first light of a cold spring morning at Lac de Joux.",
                               source: .sidecar)
    static let cjk = Caption(title: "池塘边的蜻蜓", description: "夏天的早晨，蜻蜓在池塘边的芦苇上休息。Libellule au bord de l'étang.",
                             source: .iptc)

    /// How many combining marks follow the base letter in the hostile sidecar (issue #22): three
    /// bytes each as UTF-8 is two, so 64 KB of them fit the sidecar limit.
    static let hostileMarks = 32_000

    /// A sidecar of one base letter and `hostileMarks` combining marks of three classes in turn
    /// (U+0301 ccc 230, U+0316 ccc 220, U+0334 ccc 1), read as the kiosk reads it: the first frame
    /// that shows it, and every frame after (which must cost what any caption costs).
    static func markRun(photos: BenchPhotos, frame: SceneFrame, index: Int, canvas: Canvas, settings: Settings, screen: Size,
                        budget: Double) -> (rows: [Row], summary: [String]) {
        let folder = NSTemporaryDirectory() + "vitrine-bench-marks-\(getpid())"
        mkdir(folder, 0o700)
        defer { unlink(folder + "/marks.txt"); rmdir(folder) }
        let marks: [Unicode.Scalar] = ["\u{0301}", "\u{0316}", "\u{0334}"]
        var text = "Marks\na"
        text.unicodeScalars.append(contentsOf: (0..<hostileMarks).map { marks[$0 % 3] })
        guard (try? AtomicFile.write(Array(text.utf8), to: folder + "/marks.txt")) != nil else { return ([], []) }
        let t0 = Stopwatch.now()
        let reading = CaptionReader().read(photoPath: folder + "/marks.jpg")
        let readMilliseconds = (Stopwatch.now() - t0) * 1000
        guard let caption = reading.caption,
              let painter = try? CaptionPainter(settings: settings.captions, screenSize: screen) else { return ([], []) }
        let renderer = Renderer(grid: settings.grid, captions: painter)
        photos.captions[index] = caption
        let t1 = Stopwatch.now()
        renderer.forgetLastPicture()
        renderer.render(frame, images: photos, into: &canvas.bitmap)
        let firstMilliseconds = (Stopwatch.now() - t1) * 1000
        let after = Stopwatch.measure(minRuns: 5, maxRuns: 200, budget: budget, warmUp: 1) {
            renderer.forgetLastPicture()
            renderer.render(frame, images: photos, into: &canvas.bitmap)
        }
        let name = "frame: pager at rest, \(hostileMarks / 1000)k mixed combining marks"
        return ([Row(name: name, ours: after, pixman: nil, maxDifference: nil, goal: nil)], [
            String(format: "caption: %dk mixed combining marks in a sidecar (%d bytes): read %.2f ms, first frame %.2f ms, then %.3f ms median, %.3f ms worst per frame",
                   hostileMarks / 1000, text.utf8.count, readMilliseconds, firstMilliseconds, after.median, after.p99),
        ])
    }

    /// `moving`: frames where the caption moves with its page (a swipe) or fades (a dismissal),
    /// measured against the same frames without captions.
    static func run(photos: BenchPhotos, settings: Settings, index: Int, width: Int, height: Int,
                    moving: [(name: String, frame: SceneFrame)], budget: Double) -> (rows: [Row], summary: [String]) {
        let screen = Size(width: Double(width), height: Double(height))
        guard let painter = try? CaptionPainter(settings: settings.captions, screenSize: screen) else {
            return ([], ["captions: no font found by fontconfig for \"\(settings.captions.font)\""])
        }
        let page = PhotoPlacement(index: index, rect: Rect(x: 0, y: 0, width: screen.width, height: screen.height)
            .aspectFit(photos.sizes[index]))
        let frame = SceneFrame(time: 0, mode: .pager, currentIndex: index, gridScroll: 0, drawsGrid: false, gridCells: [],
                               hiddenIndex: nil, backgroundAlpha: 1, pages: [page], movingPhoto: nil)
        photos.captions[index] = latin
        defer { photos.captions[index] = nil }

        let plain = Renderer(grid: settings.grid)
        let captioned = Renderer(grid: settings.grid, captions: painter)
        let canvas = Canvas(Bitmap(width: width, height: height))
        captioned.forgetLastPicture()
        captioned.render(frame, images: photos, into: &canvas.bitmap)  // drawn once: laid out and cached
        let (with, without) = Stopwatch.measurePair(budget: 2 * budget, {
            captioned.forgetLastPicture()
            captioned.render(frame, images: photos, into: &canvas.bitmap)
        }, {
            plain.forgetLastPicture()
            plain.render(frame, images: photos, into: &canvas.bitmap)
        })
        let added = with.median - without.median

        var movingRows: [Row] = []
        var movingLines: [String] = []
        for (name, movingFrame) in moving {
            let indices = movingFrame.pages.map(\.index) + (movingFrame.movingPhoto.map { [$0.index] } ?? [])
            for i in indices { photos.captions[i] = latin }
            captioned.forgetLastPicture()
            captioned.render(movingFrame, images: photos, into: &canvas.bitmap)
            let (withCaption, withoutCaption) = Stopwatch.measurePair(budget: 2 * budget, {
                captioned.forgetLastPicture()
                captioned.render(movingFrame, images: photos, into: &canvas.bitmap)
            }, {
                plain.forgetLastPicture()
                plain.render(movingFrame, images: photos, into: &canvas.bitmap)
            })
            for i in indices where i != index { photos.captions[i] = nil }
            movingRows.append(Row(name: "frame: \(name), captions", ours: withCaption, pixman: nil, maxDifference: nil, goal: nil))
            movingLines.append(String(format: "caption: +%.3f ms on the %@ frame (%.3f ms without captions)",
                                      withCaption.median - withoutCaption.median, name, withoutCaption.median))
        }

        // First frames: a fresh painter each time (fonts opened, glyph cache empty), untimed, then
        // the first render of the caption timed.
        func firstFrame(_ caption: Caption) -> Timing {
            var samples: [Double] = []
            let start = Stopwatch.now()
            while samples.count < 5 || (samples.count < 40 && Stopwatch.now() - start < budget) {
                guard let fresh = try? CaptionPainter(settings: settings.captions, screenSize: screen) else { break }
                let renderer = Renderer(grid: settings.grid, captions: fresh)
                photos.captions[index] = caption
                let t0 = Stopwatch.now()
                renderer.forgetLastPicture()
                renderer.render(frame, images: photos, into: &canvas.bitmap)
                samples.append((Stopwatch.now() - t0) * 1000)
            }
            return Stopwatch.timing(samples)
        }
        let firstLatin = firstFrame(latin), firstCJK = firstFrame(cjk)
        let marks = markRun(photos: photos, frame: frame, index: index, canvas: canvas, settings: settings, screen: screen,
                            budget: budget)
        photos.captions[index] = latin

        let rows = [
            Row(name: "frame: pager at rest, no caption", ours: without, pixman: nil, maxDifference: nil, goal: nil),
            Row(name: "frame: pager at rest, 3-line caption", ours: with, pixman: nil, maxDifference: nil, goal: nil),
            Row(name: "frame: first frame of a new caption", ours: firstLatin, pixman: nil, maxDifference: nil, goal: nil),
            Row(name: "frame: first frame, CJK fallback font", ours: firstCJK, pixman: nil, maxDifference: nil, goal: nil),
        ] + movingRows + marks.rows
        func verdict(_ ok: Bool) -> String { ok ? "ok" : "MISS" }
        let summary = [
            String(format: "caption: +%.3f ms on a 1080p pager frame once drawn (goal <= %.1f ms): %@", added, goalMilliseconds,
                   verdict(added <= goalMilliseconds)),
            String(format: "caption: first frame of a new caption %.2f ms median, %.2f ms worst (CJK from a fallback font %.2f / %.2f ms; budget %.1f ms): %@",
                   firstLatin.median, firstLatin.p99, firstCJK.median, firstCJK.p99, frameBudget,
                   verdict(max(firstLatin.p99, firstCJK.p99) <= frameBudget)),
        ] + movingLines + marks.summary + [
            "caption: \(painter.primaryFamily) at \(painter.pixelSize) px, \(settings.captions.maxLines) lines at most",
        ]
        return (rows, summary)
    }
}
