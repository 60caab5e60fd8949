import Blitter
import Config
import Geometry
import Photos
import Scene
import TestSupport
import Testing
@testable import Rendering

private final class CaptionedPhotos: PhotoImages {
    var screenImages: [Int: MipChain] = [:]
    var captions: [Int: Caption] = [:]
    func thumbnail(_ index: Int) -> Bitmap? { nil }
    func screenImage(_ index: Int) -> MipChain? { screenImages[index] }
    func caption(_ index: Int) -> Caption? { captions[index] }
}

/// The caption belongs to its page (SPEC §10): drawn with the page, moved with it, faded with the
/// background, and not in the grid.
@Suite(.serialized) struct CaptionRenderingTests {
    static let screen = Size(width: 320, height: 200)
    static let grey: UInt32 = 0x80_80_80

    private func frame(mode: SceneMode, pages: [PhotoPlacement] = [], moving: PhotoPlacement? = nil, alpha: Double = 1) -> SceneFrame {
        SceneFrame(time: 0, mode: mode, currentIndex: 0, gridScroll: 0, drawsGrid: mode != .pager, gridCells: [],
                   hiddenIndex: moving?.index, backgroundAlpha: alpha, pages: pages, movingPhoto: moving)
    }

    private func setUp() throws -> (Renderer, CaptionedPhotos) {
        var captions = Settings.Captions()
        captions.font = "DejaVu Sans"
        captions.size = 16
        let renderer = Renderer(grid: Settings.Grid(), captions: try CaptionPainter(settings: captions, screenSize: Self.screen))
        let photos = CaptionedPhotos()
        photos.screenImages[0] = MipChain(Bitmap(width: 320, height: 200, color: Self.grey))
        photos.screenImages[1] = MipChain(Bitmap(width: 320, height: 200, color: Self.grey))
        photos.captions[0] = Caption(title: "Harbour", description: "The last ferry", source: .sidecar)
        return (renderer, photos)
    }

    private func draw(_ renderer: Renderer, _ frame: SceneFrame, _ photos: CaptionedPhotos) -> Bitmap {
        var target = Bitmap(width: 320, height: 200)
        renderer.render(frame, images: photos, into: &target)
        return target
    }

    /// Columns (within the bottom quarter) where the picture is brighter than the photo: text.
    private func textColumns(_ bitmap: Bitmap) -> [Int] {
        (0..<bitmap.width).filter { x in (150..<200).contains { y in Pixel.red(bitmap[x, y]) > 0xC0 } }
    }

    @Test func drawnWhiteOnADarkGradientAtTheBottom() throws {
        let (renderer, photos) = try setUp()
        let page = PhotoPlacement(index: 0, rect: Rect(x: 0, y: 0, width: 320, height: 200))
        let picture = draw(renderer, frame(mode: .pager, pages: [page]), photos)
        #expect(picture[160, 20] == Self.grey)  // the top of the photo is untouched
        #expect(Pixel.red(picture[300, 195]) < 0x50)  // the bottom is darkened
        let columns = try #require(textColumns(picture).first)
        #expect(columns < 40)  // left-aligned Latin text
        #expect(renderer.captions?.lines(for: photos.captions[0]!) == ["Harbour", "The last ferry"])
    }

    @Test func movesWithItsPage() throws {
        let (renderer, photos) = try setUp()
        let at = { (x: Double) in PhotoPlacement(index: 0, rect: Rect(x: x, y: 0, width: 320, height: 200)) }
        let rest = textColumns(draw(renderer, frame(mode: .pager, pages: [at(0)]), photos))
        let slid = textColumns(draw(renderer, frame(mode: .pager, pages: [at(-100), PhotoPlacement(index: 1, rect: Rect(x: 240, y: 0, width: 320, height: 200))]), photos))
        #expect(!rest.isEmpty)
        #expect(slid == rest.map { $0 - 100 }.filter { $0 >= 0 })
        // The neighbour has no caption: its part of the bottom is not darkened.
        let picture = draw(renderer, frame(mode: .pager, pages: [at(-100), PhotoPlacement(index: 1, rect: Rect(x: 240, y: 0, width: 320, height: 200))]), photos)
        #expect(picture[300, 195] == Self.grey)
    }

    /// A band holds its photo's pixels: it is kept only while its page is on screen.
    @Test func bandsLastAsLongAsTheirPages() throws {
        let (renderer, photos) = try setUp()
        photos.captions[1] = Caption(title: "Second", source: .sidecar)
        let page = { (index: Int, x: Double) in PhotoPlacement(index: index, rect: Rect(x: x, y: 0, width: 320, height: 200)) }
        _ = draw(renderer, frame(mode: .pager, pages: [page(0, 0)]), photos)
        #expect(renderer.captions?.bandCount == 1)
        _ = draw(renderer, frame(mode: .pager, pages: [page(0, -100), page(1, 240)]), photos)
        #expect(renderer.captions?.bandCount == 2)
        _ = draw(renderer, frame(mode: .pager, pages: [page(1, 0)]), photos)
        #expect(renderer.captions?.bandCount == 1)
        _ = draw(renderer, frame(mode: .grid), photos)
        #expect(renderer.captions?.bandCount == 0)
    }

    @Test func fadesWithTheBackgroundAndIsNotInTheGrid() throws {
        let (renderer, photos) = try setUp()
        let moving = PhotoPlacement(index: 0, rect: Rect(x: 40, y: 20, width: 240, height: 150))
        func brightest(_ alpha: Double) -> UInt8 {
            let picture = draw(renderer, frame(mode: .dismissing, moving: moving, alpha: alpha), photos)
            return (0..<320).map { x in Pixel.red(picture[x, 180]) }.max() ?? 0
        }
        #expect(brightest(1) > brightest(0.5))
        #expect(brightest(0.5) > brightest(0.1))
        #expect(CaptionPlacement.placements(in: frame(mode: .dismissing, moving: moving, alpha: 0), screen: Self.screen).isEmpty)
        #expect(CaptionPlacement.placements(in: frame(mode: .grid), screen: Self.screen).isEmpty)
        // Zooming in fades the caption out: gone at 10% larger.
        let zoomed = PhotoPlacement(index: 0, rect: Rect(x: -160, y: -100, width: 640, height: 400))
        #expect(CaptionPlacement.placements(in: frame(mode: .pager, pages: [zoomed]), screen: Self.screen).isEmpty)
        let slightly = PhotoPlacement(index: 0, rect: Rect(x: -8, y: -5, width: 336, height: 210))  // 5% larger
        let half = try #require(CaptionPlacement.placements(in: frame(mode: .pager, pages: [slightly]), screen: Self.screen).first)
        #expect(abs(half.alpha - 0.5) < 1e-9)
        let narrow = PhotoPlacement(index: 0, rect: Rect(x: 60, y: 0, width: 200, height: 200))  // a portrait at rest
        #expect(CaptionPlacement.placements(in: frame(mode: .pager, pages: [narrow]), screen: Self.screen).first?.alpha == 1)
    }

    /// The slideshow: a Ken Burns slide keeps its caption at 1.1x (the visitor did not zoom), and a
    /// portrait pair's photos, marked by the scene, show none (two would cover each other).
    @Test func aKenBurnsSlideKeepsItsCaptionAndAPairShowsNone() {
        let zoomed = PhotoPlacement(index: 0, rect: Rect(x: -16, y: -10, width: 352, height: 220))
        #expect(CaptionPlacement.placements(in: frame(mode: .slideshow, pages: [zoomed]), screen: Self.screen).first?.alpha == 1)
        let pair = [PhotoPlacement(index: 0, rect: Rect(x: 20, y: 0, width: 135, height: 200), showsCaption: false),
                    PhotoPlacement(index: 1, rect: Rect(x: 165, y: 0, width: 135, height: 200), showsCaption: false)]
        #expect(CaptionPlacement.placements(in: frame(mode: .slideshow, pages: pair), screen: Self.screen).isEmpty)
    }

    @Test func renderMatchesTheDirectComposition() throws {
        let (renderer, photos) = try setUp()
        let page = PhotoPlacement(index: 0, rect: Rect(x: -37, y: 0, width: 320, height: 200))
        let next = PhotoPlacement(index: 1, rect: Rect(x: 303, y: 0, width: 320, height: 200))
        let f = frame(mode: .pager, pages: [page, next])
        var direct = Bitmap(width: 320, height: 200)
        renderer.renderDirectly(f, images: photos, into: &direct)
        #expect(draw(renderer, f, photos).pixels == direct.pixels)
    }

    /// Pages of odd and even widths at whole and fractional offsets: the cached band (a page at its
    /// own size) and the caption laid over the picture give the same pixels.
    @Test func theCachedBandMatchesTheCaptionLaidOver() throws {
        let (renderer, photos) = try setUp()
        var rng = SplitMix64(seed: 16)
        photos.screenImages[0] = MipChain(TestImages.random(width: 301, height: 187, using: &rng))
        photos.screenImages[1] = MipChain(TestImages.random(width: 320, height: 200, using: &rng))
        photos.captions[1] = Caption(title: "שלום", description: "A second page, its caption right to left", source: .xmp)
        for offset in [0.0, -1, -37, -37.5, -150.25, -319, 12, 160.7] {
            let first = PhotoPlacement(index: 0, rect: Rect(x: 9.5 + offset, y: 6.5, width: 301, height: 187))
            let second = PhotoPlacement(index: 1, rect: Rect(x: 340 + offset, y: 0, width: 320, height: 200))
            let f = frame(mode: .pager, pages: [first, second])
            var direct = Bitmap(width: 320, height: 200)
            renderer.renderDirectly(f, images: photos, into: &direct)
            let rendered = draw(renderer, f, photos)
            #expect(rendered.pixels == direct.pixels, "offset \(offset)")
        }
    }

    /// A caption is laid out once, the first frame that shows it; the frames after it at rest,
    /// sliding, fading, and after other captions came and went, take it from the painter (issue
    /// #22: a caption of thousands of combining marks was hashed and normalised every frame).
    @Test func aCaptionIsLaidOutOnceAcrossManyFrames() throws {
        let (renderer, photos) = try setUp()
        let painter = try #require(renderer.captions)
        let marks: [Unicode.Scalar] = ["\u{0301}", "\u{0316}", "\u{0334}"]
        var text = "a"
        text.unicodeScalars.append(contentsOf: (0..<3000).map { marks[$0 % 3] })
        photos.captions[0] = Caption(title: "Marks", description: text, source: .sidecar)
        photos.captions[1] = Caption(title: "Second", source: .sidecar)
        let page = { (index: Int, x: Double) in PhotoPlacement(index: index, rect: Rect(x: x, y: 0, width: 320, height: 200)) }
        var target = Bitmap(width: 320, height: 200)
        _ = renderer.render(frame(mode: .pager, pages: [page(0, 0)]), images: photos, into: &target)
        #expect(painter.layouts == 1)
        // The same frame again changes no row.
        #expect(renderer.render(frame(mode: .pager, pages: [page(0, 0)]), images: photos, into: &target).isEmpty)
        for step in 0..<100 {
            let x = -Double(step) * 3.3
            _ = renderer.render(frame(mode: .pager, pages: [page(0, x), page(1, x + 320)]), images: photos, into: &target)
            _ = renderer.render(frame(mode: .dismissing, moving: page(0, Double(step)), alpha: 1 - Double(step) / 100), images: photos, into: &target)
        }
        #expect(painter.layouts == 2)  // and the neighbour's, once
    }
}
