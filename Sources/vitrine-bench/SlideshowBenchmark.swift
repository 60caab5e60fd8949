import Blitter
import CPixman
import Config
import Foundation
import Geometry
import Rendering
import Scene

/// The slideshow's frames (issue #25): crossfades, Ken Burns and portrait pairs as `SceneFrame`s
/// in `slideshow` mode, each `Renderer.render` against pixman's naive composite of the same
/// picture in the same run (`DissolveComposite`), goal <= 0.6x; and a still slide's one frame.
enum SlideshowBenchmark {
    static let goal = 0.6
    static let frameBudget = 1000.0 / 60

    /// The frames at 1920x1080 from the bench photos: two landscapes of the same aspect ratio,
    /// a landscape and a portrait, four portraits.
    static func frames(photos: BenchPhotos, width: Int, height: Int) -> [(name: String, frame: SceneFrame)] {
        let screen = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let sizes = photos.sizes
        func aspect(_ i: Int) -> Double { sizes[i].width / sizes[i].height }
        let landscapes = sizes.indices.filter { aspect($0) > 1.2 && aspect($0) < 2 }
        let portraits = sizes.indices.filter { aspect($0) < 0.8 }
        let (first, second) = landscapes.lazy.flatMap { i in landscapes.lazy.filter { $0 > i }.map { (i, $0) } }
            .first { abs(aspect($0.0) - aspect($0.1)) < 0.01 } ?? (landscapes[0], landscapes[1])
        /// The page's fit rect; within half a pixel of its screen image's size, that size at whole
        /// pixels, where the renderer puts such a page (a copy of rows), so that pixman draws the
        /// same picture.
        func fit(_ i: Int, in frame: Rect = screen) -> Rect {
            let rect = frame.aspectFit(sizes[i])
            guard let image = photos.screenImage(i)?.image, abs(rect.width - Double(image.width)) < 0.5,
                  abs(rect.height - Double(image.height)) < 0.5 else { return rect }
            return Rect(x: (rect.midX - Double(image.width) / 2).rounded(), y: (rect.midY - Double(image.height) / 2).rounded(),
                        width: Double(image.width), height: Double(image.height))
        }
        /// Ken Burns: the fit rect scaled by `zoom` about a point above its centre (towards the
        /// upper third), at fractions of a pixel.
        func zoomed(_ i: Int, _ zoom: Double) -> Rect {
            let rect = fit(i), anchor = Point(x: rect.midX + 13.37, y: rect.minY + rect.height * 0.4)
            return Rect(x: anchor.x + (rect.minX - anchor.x) * zoom, y: anchor.y + (rect.minY - anchor.y) * zoom,
                        width: rect.width * zoom, height: rect.height * zoom)
        }
        func frame(_ pages: [PhotoPlacement]) -> SceneFrame {
            SceneFrame(time: 0, mode: .slideshow, currentIndex: pages.last?.index, gridScroll: 0, drawsGrid: false,
                       gridCells: [], hiddenIndex: nil, backgroundAlpha: 1, pages: pages, movingPhoto: nil)
        }
        let left = Rect(x: 0, y: 0, width: screen.width / 2, height: screen.height)
        let right = left.offsetBy(dx: screen.width / 2, dy: 0)
        return [
            ("frame: crossfade a = 0.5, same aspect", frame([PhotoPlacement(index: first, rect: fit(first), alpha: 0.5),
                                                             PhotoPlacement(index: second, rect: fit(second), alpha: 0.5)])),
            ("frame: crossfade a = 0.5, landscape->portrait",
             frame([PhotoPlacement(index: first, rect: fit(first), alpha: 0.5),
                    PhotoPlacement(index: portraits[0], rect: fit(portraits[0]), alpha: 0.5)])),
            ("frame: Ken Burns zoom 1.05", frame([PhotoPlacement(index: second, rect: zoomed(second, 1.05))])),
            ("frame: Ken Burns crossfade", frame([PhotoPlacement(index: second, rect: zoomed(second, 1.1), alpha: 0.5),
                                                  PhotoPlacement(index: first, rect: zoomed(first, 1.005), alpha: 0.5)])),
            ("frame: portrait pair crossfade",
             frame([PhotoPlacement(index: portraits[0], rect: fit(portraits[0], in: left), alpha: 0.5),
                    PhotoPlacement(index: portraits[1], rect: fit(portraits[1], in: right), alpha: 0.5),
                    PhotoPlacement(index: portraits[2], rect: fit(portraits[2], in: left), alpha: 0.5),
                    PhotoPlacement(index: portraits[3], rect: fit(portraits[3], in: right), alpha: 0.5)])),
            ("frame: still slide (drawn once)", frame([PhotoPlacement(index: first, rect: fit(first))])),
        ]
    }

    /// The rows (printed as they come) and the summary lines: the frames drawn, Ken Burns' share
    /// of a 60 fps frame, the still slide.
    static func run(photos: BenchPhotos, settings: Settings, width: Int, height: Int,
                    selected: (String) -> Bool, report: (Row) -> Void) -> [String] {
        var summary: [String] = []
        var timings: [String: Timing] = [:]
        for (name, frame) in frames(photos: photos, width: width, height: height) where selected(name) {
            let renderer = Renderer(grid: settings.grid)
            let canvas = Canvas(Bitmap(width: width, height: height))
            renderer.render(frame, images: photos, into: &canvas.bitmap)
            let naive = DissolveComposite(photos: photos, width: width, height: height)
            let reference = PixmanImage(width: width, height: height)
            naive.render(frame, into: reference)
            let difference = maxDifference(canvas.bitmap, reference.bitmap)
            let (ours, pixman) = measureOnSharedPixels(name, canvas: canvas, ours: {
                renderer.render(frame, images: photos, into: &canvas.bitmap)
            }, pixman: { naive.render(frame, into: $0) })
            let isStill = name.contains("still")
            let row = Row(name: name, ours: ours, pixman: pixman, maxDifference: difference, goal: isStill ? nil : goal)
            timings[name] = ours
            report(row)
            summary.append(describe(name, frame))
        }
        func share(_ name: String) -> String? {
            timings[name].map { String(format: "%.2f ms, %.0f%% of a 60 fps frame (%.1f ms)", $0.median,
                                       100 * $0.median / frameBudget, frameBudget) }
        }
        if let zoom = share("frame: Ken Burns zoom 1.05") {
            summary.append("Ken Burns redraws every frame: one page zooming \(zoom) of one core"
                + (share("frame: Ken Burns crossfade").map { "; two crossfading \($0)" } ?? "") + ".")
        }
        if let still = timings["frame: still slide (drawn once)"] {
            summary.append(String(format: "A still slide is drawn once (%.2f ms), then the screen sleeps: no frame until the next "
                                  + "transition (slide and crossfade).", still.median))
        }
        return summary
    }

    /// docs/benchmark.md's account of the slideshow rows, with `lines` (the frames and summary).
    static func explanation(_ lines: [String]) -> [String] {
        guard !lines.isEmpty else { return [] }
        return [
            "- Slideshow rows (`SlideshowBenchmark`): `SceneFrame`s in `slideshow` mode, whose pages are",
            "  dissolved over black (each pixel the sum of alpha x page). The renderer draws them with a",
            "  `Dissolve`: each row cut into spans by the pages' edges, a span of two pages one two-source",
            "  pass, a span of one that page weighed over black, the rest black; a page at its image's",
            "  size on whole pixels is read from its rows, a scaled one (Ken Burns) drawn bilinear into a",
            "  32-row band kept between frames, then weighed from there while the band is in the cache.",
            "  Each screen pixel is written once. pixman does the definition the straightforward way:",
            "  `pixman_fill` black, then each page `PIXMAN_OP_ADD` through a solid mask of its alpha",
            "  (where every page is opaque, `PIXMAN_OP_SRC`: pixman's bilinear fast path; ADD has none",
            "  for a scaled source), bilinear from the same mip level and crop with `PIXMAN_REPEAT_PAD`",
            "  (pages at their own size are a whole-pixel translation, which pixman runs as a copy).",
            "  pixman truncates where the blitter rounds, hence a `max diff` of 1-2. Crossfades at",
            "  a = 0.5: two 3:2 landscapes at their screen size, a landscape into a portrait; Ken Burns:",
            "  one page at 1.05 of its fit rect (past the top and bottom edges, fractional), and two",
            "  crossfading (1.1 and 1.005); portrait pairs: two portraits side by side fading into two",
            "  others. A still slide (one opaque page) is the pager's page path: drawn once, then no",
            "  frame until the next transition.",
        ] + lines.map { "  - " + $0 }
    }

    private static func describe(_ name: String, _ frame: SceneFrame) -> String {
        func rect(_ r: Rect) -> String { String(format: "%.2f,%.2f %.2fx%.2f", r.x, r.y, r.width, r.height) }
        return "\(name): slideshow, " + frame.pages.map { String(format: "page %d at %@ alpha %.2f", $0.index, rect($0.rect), $0.alpha) }
            .joined(separator: ", ")
    }
}

/// pixman drawing a slideshow frame by its definition, the straightforward way: black over the
/// screen, then each page added (`PIXMAN_OP_ADD`) through a solid mask of its alpha, or where
/// every page is opaque each copied (`PIXMAN_OP_SRC`, its bilinear fast path), sampled as the
/// blitter samples it (bilinear transform from the same mip level and crop, PAD at the crop's
/// edges; a page at its image's size on whole pixels is a translation).
final class DissolveComposite {
    let photos: BenchPhotos
    let screen: PixelRect
    private var levels: [String: PixmanImage] = [:]
    private var masks: [Double: PixmanSolid] = [:]

    init(photos: BenchPhotos, width: Int, height: Int) {
        self.photos = photos
        screen = PixelRect(x: 0, y: 0, width: width, height: height)
    }

    func render(_ frame: SceneFrame, into target: PixmanImage) {
        target.fill(screen, color: Pixel.black)
        let opaque = frame.pages.allSatisfy { $0.alpha >= 1 }
        for page in frame.pages where page.alpha > 0 {
            guard let chain = photos.screenImage(page.index) else { continue }
            let crop = aspectFillCrop(of: chain.size, in: page.rect)
            let (level, levelCrop) = mipLevel(chain, sourceRect: crop, into: page.rect)
            let key = "\(page.index)/\(level)"
            let image = levels[key] ?? PixmanImage(sharing: chain.levels[level])
            levels[key] = image
            let (source, viewCrop) = image.view(touchedBy: levelCrop)
            source.setScaling(sourceRect: viewCrop, destination: page.rect)
            let mask = page.alpha < 1 ? (masks[page.alpha] ?? PixmanSolid(alpha: page.alpha)) : nil
            if let mask { masks[page.alpha] = mask }
            // Where every page is opaque (a still slide, Ken Burns between crossfades, a pair at
            // rest: side by side), each replaces the black under it: SRC, pixman's bilinear fast
            // path. ADD, which translucent pages need, has none for a scaled source.
            target.composite(opaque ? PIXMAN_OP_SRC : PIXMAN_OP_ADD, source, mask: mask?.image, rect: page.rect.centredPixels)
        }
    }
}
