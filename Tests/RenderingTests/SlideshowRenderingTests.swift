@testable import Blitter
import Config
import Geometry
import Photos
import Scene
import TestSupport
import Testing
@testable import Rendering

private final class Slides: PhotoImages {
    var thumbnails: [Int: Bitmap] = [:]
    var screenImages: [Int: MipChain] = [:]
    func thumbnail(_ index: Int) -> Bitmap? { thumbnails[index] }
    func screenImage(_ index: Int) -> MipChain? { screenImages[index] }
}

/// Slideshow frames (SceneFrame.pages dissolved over black): crossfades, Ken Burns and portrait
/// pairs as the scene hands them over, drawn as `renderDirectly` defines them, against the
/// definition in Double, with the rows that changed reported.
@Suite struct SlideshowRenderingTests {
    static let width = 161, height = 91

    /// Photos 0-1 landscape at the screen's fit size (as decoded for it), 2-5 portraits at half
    /// the screen's width, 6 a landscape larger than the screen; 7 has a thumbnail only.
    private static func slides(seed: UInt64) -> Slides {
        var rng = SplitMix64(seed: seed)
        let slides = Slides()
        for index in 0..<2 { slides.screenImages[index] = MipChain(TestImages.structured(width: 136, height: 91, using: &rng)) }
        for index in 2..<6 { slides.screenImages[index] = MipChain(TestImages.structured(width: 60, height: 90, using: &rng)) }
        slides.screenImages[6] = MipChain(TestImages.structured(width: 300, height: 200, using: &rng))
        slides.thumbnails[7] = TestImages.structured(width: 30, height: 40, using: &rng)
        return slides
    }

    private static var screen: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    private static func frame(_ pages: [PhotoPlacement], mode: SceneMode = .slideshow) -> SceneFrame {
        SceneFrame(time: 0, mode: mode, currentIndex: pages.last?.index, gridScroll: 0, drawsGrid: false, gridCells: [],
                   hiddenIndex: nil, backgroundAlpha: 1, pages: pages, movingPhoto: nil)
    }

    private static func fit(_ slides: Slides, _ index: Int) -> Rect {
        let size = slides.screenImage(index).map(\.size) ?? slides.thumbnail(index)!.size
        return screen.aspectFit(size)
    }

    /// Ken Burns' rect: the fit rect scaled by `zoom` about a point off its centre.
    private static func zoomed(_ rect: Rect, _ zoom: Double) -> Rect {
        let anchor = Point(x: rect.midX + 7.3, y: rect.minY + rect.height / 3)
        return Rect(x: anchor.x + (rect.minX - anchor.x) * zoom, y: anchor.y + (rect.minY - anchor.y) * zoom,
                    width: rect.width * zoom, height: rect.height * zoom)
    }

    /// Every kind of slideshow frame at alpha a: a crossfade of the same aspect ratio, landscape
    /// to portrait, Ken Burns alone and crossfading, portrait pairs, a photo not decoded yet.
    private static func frames(_ slides: Slides, a: Double) -> [(String, SceneFrame)] {
        let half = Double(width) / 2
        func portrait(_ index: Int, left: Bool) -> Rect {
            Rect(x: 0, y: 0, width: half, height: Double(height)).offsetBy(dx: left ? 0 : half, dy: 0)
                .aspectFit(slides.screenImage(index)!.size)
        }
        return [
            ("crossfade", frame([PhotoPlacement(index: 0, rect: fit(slides, 0), alpha: 1 - a),
                                 PhotoPlacement(index: 1, rect: fit(slides, 1), alpha: a)])),
            ("landscape to portrait", frame([PhotoPlacement(index: 0, rect: fit(slides, 0), alpha: 1 - a),
                                             PhotoPlacement(index: 2, rect: fit(slides, 2), alpha: a)])),
            ("Ken Burns", frame([PhotoPlacement(index: 6, rect: zoomed(fit(slides, 6), 1 + 0.1 * a))])),
            ("Ken Burns crossfade", frame([PhotoPlacement(index: 6, rect: zoomed(fit(slides, 6), 1.1), alpha: 1 - a),
                                           PhotoPlacement(index: 0, rect: zoomed(fit(slides, 0), 1 + 0.02 * a), alpha: a)])),
            ("portrait pairs", frame([PhotoPlacement(index: 2, rect: portrait(2, left: true), alpha: 1 - a),
                                      PhotoPlacement(index: 3, rect: portrait(3, left: false), alpha: 1 - a),
                                      PhotoPlacement(index: 4, rect: portrait(4, left: true).offsetBy(dx: 0.5, dy: 0), alpha: a),
                                      PhotoPlacement(index: 5, rect: portrait(5, left: false), alpha: a)])),
            ("over the grid's flag", {
                // A slideshow has no grid under it, whatever the frame's grid flag says.
                var over = frame([PhotoPlacement(index: 0, rect: fit(slides, 0), alpha: 1)])
                over.drawsGrid = true
                over.backgroundAlpha = 1 - a
                return over
            }()),
            ("thumbnail and placeholder", frame([PhotoPlacement(index: 7, rect: fit(slides, 7), alpha: 1 - a),
                                                 PhotoPlacement(index: 9, rect: fit(slides, 0).offsetBy(dx: 3.5, dy: 0), alpha: a)])),
        ]
    }

    /// `render`, frame after frame into one target, is `renderDirectly` (the definition in
    /// integers: each page drawn alone, summed per pixel) at alpha 0, 1 and between.
    @Test func everySlideshowFrameIsTheStraightforwardDissolve() {
        let slides = Self.slides(seed: 2510)
        let renderer = Renderer(grid: Settings.Grid())
        var target = Bitmap(width: Self.width, height: Self.height, color: 0xAB_CD_EF)
        for a in [0, 0.001, 0.3, 0.5, 0.77, 1] {
            for (name, frame) in Self.frames(slides, a: a) {
                var direct = Bitmap(width: Self.width, height: Self.height, color: 0x12_34_56)
                renderer.renderDirectly(frame, images: slides, into: &direct)
                renderer.render(frame, images: slides, into: &target)
                #expect(target.pixels == direct.pixels, "\(name) at a \(a)")
            }
        }
    }

    /// A crossfade is a x next + (1 - a) x previous where both are, fading from or to black where
    /// only one is, in Double within a level (same size, read 1:1) or two (scaled).
    @Test func aCrossfadeIsTheWeightedSumInDouble() throws {
        let slides = Self.slides(seed: 2511)
        let renderer = Renderer(grid: Settings.Grid())
        for a in [0.2, 0.5, 0.9] {
            for (name, frame) in Self.frames(slides, a: a) where name.contains("cross") || name.contains("portrait") {
                var picture = Bitmap(width: Self.width, height: Self.height)
                renderer.render(frame, images: slides, into: &picture)
                var sums = [[Double]](repeating: [0, 0, 0], count: Self.width * Self.height)
                for var page in frame.pages {
                    let image = try #require(slides.screenImage(page.index))
                    if page.rect.size == image.size {
                        // At its own size a page is drawn on whole pixels, as in the pager.
                        page.rect.origin = Point(x: page.rect.minX.rounded(), y: page.rect.minY.rounded())
                    }
                    var alone = Bitmap(width: Self.width, height: Self.height)
                    let crop = try #require(Bitmap.aspectFillCrop(of: image.size, in: page.rect))
                    let level = image.level(for: crop, into: page.rect)
                    let covered = Renderer.centredPixels(page.rect).intersection(alone.bounds)
                    alone.drawScaledReference(level.bitmap, sourceRect: level.sourceRect, into: page.rect, clip: covered)
                    for y in covered.minY..<covered.maxY {
                        for x in covered.minX..<covered.maxX {
                            for (c, value) in TestImages.channels(alone[x, y]).enumerated() {
                                sums[y * Self.width + x][c] += Double(value) * page.alpha
                            }
                        }
                    }
                }
                var worst = 0
                for y in 0..<Self.height {
                    for x in 0..<Self.width {
                        for (c, value) in TestImages.channels(picture[x, y]).enumerated() {
                            worst = max(worst, abs(value - Int(sums[y * Self.width + x][c].rounded())))
                        }
                    }
                }
                let scaled = frame.pages.contains { $0.rect.width != Double(slides.screenImage($0.index)!.width) }
                #expect(worst <= (scaled ? 2 : 1), "\(name) at a \(a)")
            }
        }
    }

    /// Opaque pages side by side (a still slide, a pair at rest) take the page path: the pixels
    /// of the same pages in the pager.
    @Test func opaquePagesSideBySideAreThePagersPicture() {
        let slides = Self.slides(seed: 2512)
        let renderer = Renderer(grid: Settings.Grid())
        for (name, frame) in Self.frames(slides, a: 1) where !name.contains("Ken Burns crossfade") {
            let opaque = frame.pages.filter { $0.alpha >= 1 }
            var slideshow = Bitmap(width: Self.width, height: Self.height), pager = slideshow
            renderer.render(Self.frame(opaque), images: slides, into: &slideshow)
            renderer.render(Self.frame(opaque, mode: .pager), images: slides, into: &pager)
            #expect(slideshow.pixels == pager.pixels, "\(name)")
        }
    }

    /// The rows reported: none for the same frame again; those of the pages when their alpha
    /// moves; all when the same pages go from laid over each other (pager) to dissolved.
    @Test func theRowsThatChangedAreReported() {
        let slides = Self.slides(seed: 2513)
        let renderer = Renderer(grid: Settings.Grid())
        var target = Bitmap(width: Self.width, height: Self.height)
        let pair = Self.frames(slides, a: 0.4)[1].1
        #expect(renderer.render(pair, images: slides, into: &target) == RowSet.all(Self.height))
        #expect(renderer.render(pair, images: slides, into: &target).isEmpty)
        var later = pair
        later.pages[1].alpha = 0.5
        let changed = renderer.render(later, images: slides, into: &target)
        let rows = Renderer.centredPixels(later.pages[1].rect).intersection(target.bounds)
        #expect(changed == RowSet(rows.minY..<rows.maxY))
        var laid = later
        laid.mode = .pager
        renderer.render(laid, images: slides, into: &target)
        #expect(renderer.render(later, images: slides, into: &target) == RowSet.all(Self.height))
    }
}
