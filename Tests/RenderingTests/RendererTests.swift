import Blitter
import Config
import Geometry
import Scene
import TestSupport
import Testing
@testable import Rendering

/// Pictures that tests can change between frames, as the decoder does.
private final class TestPhotos: PhotoImages {
    var thumbnails: [Int: Bitmap] = [:]
    var screenImages: [Int: MipChain] = [:]
    func thumbnail(_ index: Int) -> Bitmap? { thumbnails[index] }
    func screenImage(_ index: Int) -> MipChain? { screenImages[index] }
}

/// `render` (covered areas skipped, grid layer cached, dim fused into the copy) must give exactly
/// the picture of `renderDirectly` (every layer over the whole screen), frame after frame.
@Suite struct RendererTests {
    static let screen = Size(width: 160, height: 100)
    static let photoCount = 24

    private static func photos(using rng: inout SplitMix64, missing: Double) -> TestPhotos {
        let photos = TestPhotos()
        for index in 0..<photoCount where Double.random(in: 0..<1, using: &rng) >= missing {
            let wide = index % 3 != 0
            photos.thumbnails[index] = TestImages.structured(width: wide ? 48 : 36, height: 36, using: &rng)
            if Double.random(in: 0..<1, using: &rng) >= missing {
                photos.screenImages[index] = MipChain(TestImages.structured(width: wide ? 150 : 75, height: 100, using: &rng))
            }
        }
        return photos
    }

    /// The grid as `GridView` lays it out: 4 columns, 4 px spacing, scrolled by `scroll`.
    private static func cells(scroll: Double) -> [GridCell] {
        let spacing = 4.0, side = (screen.width - 5 * spacing) / 4, step = side + spacing
        return (0..<photoCount).compactMap { index in
            let rect = Rect(x: spacing + Double(index % 4) * step, y: spacing + Double(index / 4) * step - scroll,
                            width: side, height: side)
            return rect.maxY > 0 && rect.minY < screen.height ? GridCell(index: index, rect: rect) : nil
        }
    }

    private static func randomRect(using rng: inout SplitMix64) -> Rect {
        Rect(x: Double.random(in: -60...140, using: &rng), y: Double.random(in: -40...90, using: &rng),
             width: Double.random(in: 1...200, using: &rng), height: Double.random(in: 1...120, using: &rng))
    }

    private static func randomFrame(using rng: inout SplitMix64) -> SceneFrame {
        let mode = [SceneMode.grid, .opening, .pager, .dismissing, .closing].randomElement(using: &rng) ?? .grid
        let scroll = [0, 17.25, Double.random(in: 0...200, using: &rng)].randomElement(using: &rng) ?? 0
        let current = Int.random(in: 0..<photoCount, using: &rng)
        let alpha = [0, 1, 0.6, 0.001, 0.999, Double.random(in: 0...1, using: &rng)].randomElement(using: &rng) ?? 0
        var pages: [PhotoPlacement] = []
        var moving: PhotoPlacement?
        switch mode {
        case .grid:
            return SceneFrame(time: 0, mode: .grid, currentIndex: nil, gridScroll: scroll, drawsGrid: true,
                              gridCells: cells(scroll: scroll), hiddenIndex: nil, backgroundAlpha: 0, pages: [],
                              movingPhoto: nil)
        case .pager, .slideshow:
            let offset = Double.random(in: -170...170, using: &rng)
            for index in max(0, current - 1)...min(photoCount - 1, current + 1) {
                let fit = Rect(origin: .zero, size: screen).insetBy(dx: Double.random(in: 0...30, using: &rng), dy: 0)
                pages.append(PhotoPlacement(index: index, rect: fit.offsetBy(dx: Double(index - current) * 170 + offset, dy: 0)))
            }
        case .opening, .dismissing, .closing:
            moving = PhotoPlacement(index: current, rect: randomRect(using: &rng))
        }
        let drawsGrid = mode != .pager && alpha < 1
        return SceneFrame(time: 0, mode: mode, currentIndex: current, gridScroll: scroll, drawsGrid: drawsGrid,
                          gridCells: cells(scroll: scroll), hiddenIndex: moving?.index, backgroundAlpha: mode == .pager ? 1 : alpha,
                          pages: pages, movingPhoto: moving)
    }

    @Test func randomFramesInARowMatchTheStraightforwardComposition() {
        var rng = SplitMix64(seed: 21)
        var grid = Settings.Grid()
        grid.backgroundColor = 0x30_10_10
        let renderer = Renderer(grid: grid)
        // One target reused for all frames, like a screen buffer: leftovers of the previous frame
        // must never show through.
        var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height), color: 0xAB_CD_EF)
        for round in 0..<8 {
            let photos = Self.photos(using: &rng, missing: round < 2 ? 0 : 0.3)
            for step in 0..<40 {
                let frame = Self.randomFrame(using: &rng)
                expectRenderedAsDrawnWhole(frame, renderer, photos, "round \(round) step \(step): \(frame)", target: &target)
            }
        }
    }

    /// A photo dragged over a background that stays (the dimmed grid at one alpha, the grid alone,
    /// black), growing, shrinking, leaving the screen and turning translucent: each frame drawn
    /// over the last one is the straightforward picture.
    @Test func aPhotoMovingOverAStillBackgroundMatchesFrameByFrame() {
        var rng = SplitMix64(seed: 23)
        let photos = Self.photos(using: &rng, missing: 0)
        photos.screenImages[9] = nil
        // Alpha -1: the dim follows the drag, 0.8 down to 0 (the whole layer dimmed anew each frame).
        for (alpha, drawsGrid) in [(0.6, true), (0.0, true), (1.0, false), (0.999, true), (-1, true)] {
            // The grid layer read packed (as where the CPU has AVX2) and as drawn.
            for (index, packs) in [(5, false), (9, false), (5, true), (9, true)] {
                let renderer = Renderer(grid: Settings.Grid(), packsGridLayer: packs)
                var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height), color: 0xAB_CD_EF)
                for step in 0...24 {
                    let t = Double(step) / 24
                    let rect = Rect(x: -30 + 150 * t, y: 10 - 50 * t + 80 * t * t, width: 120 - 70 * t, height: 80 - 40 * t)
                    let photoAlpha = step == 12 ? 0.5 : 1
                    let frame = SceneFrame(time: t, mode: .dismissing, currentIndex: index, gridScroll: 0, drawsGrid: drawsGrid,
                                           gridCells: Self.cells(scroll: 0), hiddenIndex: index,
                                           backgroundAlpha: alpha < 0 ? 0.8 * (1 - t) : alpha, pages: [],
                                           movingPhoto: PhotoPlacement(index: index, rect: rect, alpha: photoAlpha))
                    expectRenderedAsDrawnWhole(frame, renderer, photos, "alpha \(alpha) photo \(index) packed \(packs) step \(step)",
                                               target: &target)
                }
            }
        }
    }

    /// What the optimisation is for: the background a photo did not cover last frame is not drawn
    /// again while it stays the same (a pixel changed behind the renderer's back stays changed),
    /// and is drawn again when the dim changes, or into another bitmap.
    @Test func theBackgroundLeftUncoveredIsDrawnOnlyWhenItChanges() {
        var rng = SplitMix64(seed: 24)
        let photos = Self.photos(using: &rng, missing: 0)
        let renderer = Renderer(grid: Settings.Grid())
        func frame(x: Double, alpha: Double) -> SceneFrame {
            SceneFrame(time: 0, mode: .dismissing, currentIndex: 5, gridScroll: 0, drawsGrid: true,
                       gridCells: Self.cells(scroll: 0), hiddenIndex: 5, backgroundAlpha: alpha, pages: [],
                       movingPhoto: PhotoPlacement(index: 5, rect: Rect(x: x, y: 20, width: 60, height: 40)))
        }
        var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height))
        renderer.render(frame(x: 10, alpha: 0.6), images: photos, into: &target)
        let marker: UInt32 = 0x00FE_01FE
        target[150, 95] = marker
        renderer.render(frame(x: 14, alpha: 0.6), images: photos, into: &target)
        #expect(target[150, 95] == marker)
        renderer.render(frame(x: 18, alpha: 0.5), images: photos, into: &target)
        #expect(target[150, 95] != marker)
        target[150, 95] = marker
        var other = target
        other[0, 0] = 0
        renderer.render(frame(x: 22, alpha: 0.5), images: photos, into: &other)
        #expect(other[150, 95] != marker)
        // Told that something else wrote into it, the whole frame is drawn and reported.
        other[150, 95] = marker
        renderer.forgetLastPicture()
        let rows = renderer.render(frame(x: 22, alpha: 0.5), images: photos, into: &other)
        #expect(other[150, 95] != marker)
        #expect(rows == .all(Int(Self.screen.height)))
    }

    @Test func aTransitionFrameByFrameMatchesAndFollowsThumbnailsThatArrive() {
        var rng = SplitMix64(seed: 22)
        let photos = Self.photos(using: &rng, missing: 0)
        let late = photos.thumbnails.removeValue(forKey: 6)
        let renderer = Renderer(grid: Settings.Grid())
        var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height))
        let start = Rect(x: 43, y: 4, width: 35.5, height: 35.5), end = Rect(x: 0, y: 0, width: 160, height: 100)
        for step in 0...20 {
            let t = Double(step) / 20
            if step == 8 { photos.thumbnails[6] = late }
            if step == 14 { photos.thumbnails[7] = TestImages.structured(width: 40, height: 36, using: &rng) }
            let frame = SceneFrame(time: t, mode: .opening, currentIndex: 5, gridScroll: 0, drawsGrid: t < 1,
                                   gridCells: Self.cells(scroll: 0), hiddenIndex: 5, backgroundAlpha: t,
                                   pages: [], movingPhoto: PhotoPlacement(index: 5, rect: start.interpolated(to: end, t)))
            expectRenderedAsDrawnWhole(frame, renderer, photos, "step \(step)", target: &target)
        }
    }

    /// The grid layer keeps its storage from one transition to the next, but not its pixels: a
    /// dismiss after the pager draws the grid of then, with the thumbnails that changed meanwhile
    /// (decoded again after leaving the cache) and the cell now hidden.
    @Test func aTransitionAfterThePagerDrawsTheGridOfThen() {
        var rng = SplitMix64(seed: 24)
        let photos = Self.photos(using: &rng, missing: 0)
        let renderer = Renderer(grid: Settings.Grid())
        var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height))
        func transition(_ mode: SceneMode, hidden: Int, scroll: Double, alpha: Double) -> SceneFrame {
            SceneFrame(time: 0, mode: mode, currentIndex: hidden, gridScroll: scroll, drawsGrid: true,
                       gridCells: Self.cells(scroll: scroll), hiddenIndex: hidden, backgroundAlpha: alpha, pages: [],
                       movingPhoto: PhotoPlacement(index: hidden, rect: Rect(x: 30, y: 10, width: 90, height: 60)))
        }
        expectRenderedAsDrawnWhole(transition(.opening, hidden: 5, scroll: 0, alpha: 0.5), renderer, photos, "opening", target: &target)
        let pager = SceneFrame(time: 0, mode: .pager, currentIndex: 5, gridScroll: 0, drawsGrid: false,
                               gridCells: [], hiddenIndex: nil, backgroundAlpha: 1,
                               pages: [PhotoPlacement(index: 5, rect: Rect(x: 5, y: 0, width: 150, height: 100))], movingPhoto: nil)
        expectRenderedAsDrawnWhole(pager, renderer, photos, "pager", target: &target)
        for index in [1, 2, 6] {
            photos.thumbnails[index] = TestImages.structured(width: 48, height: 36, using: &rng)
        }
        for (step, alpha) in [0.7, 0.4].enumerated() {
            expectRenderedAsDrawnWhole(transition(.dismissing, hidden: 6, scroll: 0, alpha: alpha), renderer, photos,
                            "dismiss step \(step)", target: &target)
        }
    }

    @Test func areaMinusHolesCoversEveryPixelOutsideTheHolesOnce() {
        var rng = SplitMix64(seed: 23)
        let area = PixelRect(x: 0, y: 0, width: 40, height: 30)
        for _ in 0..<100 {
            let holes = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                PixelRect(x: Int.random(in: -10...40, using: &rng), y: Int.random(in: -10...30, using: &rng),
                          width: Int.random(in: 0...30, using: &rng), height: Int.random(in: 0...30, using: &rng))
            }
            var count = [Int](repeating: 0, count: area.width * area.height)
            for piece in Renderer.area(area, minus: holes) {
                for y in piece.minY..<piece.maxY { for x in piece.minX..<piece.maxX { count[y * area.width + x] += 1 } }
            }
            for y in 0..<area.height {
                for x in 0..<area.width {
                    let inHole = holes.contains { x >= $0.minX && x < $0.maxX && y >= $0.minY && y < $0.maxY }
                    #expect(count[y * area.width + x] == (inHole ? 0 : 1), "\(x),\(y) holes \(holes)")
                }
            }
        }
    }
}

/// A panorama's thumbnail is its centred crop: standing in for the photo in a rect longer than
/// the crop (a page, the end of an opening) it is drawn in its part of the rect, not stretched
/// over all of it; a thumbnail of the photo's whole shape fills its rect whatever its rounding.
@Suite struct ThumbnailRectTests {
    @Test func aCropIsDrawnInItsCentredPartOfALongerRect() {
        // 950x475, the middle of a 4272x480 panorama, in its page of 1920x216.
        let crop = Bitmap(width: 950, height: 475)
        let page = Rect(x: 0, y: 432, width: 1920, height: 216)
        #expect(Renderer.thumbnailRect(crop, in: page) == Rect(x: 744, y: 432, width: 432, height: 216))
        // Upright.
        let upright = Bitmap(width: 475, height: 950)
        #expect(Renderer.thumbnailRect(upright, in: Rect(x: 10, y: 0, width: 100, height: 800))
                == Rect(x: 10, y: 300, width: 100, height: 200))
        // In a rect no longer than itself (its cell, the start of an opening): aspect-fill.
        for rect in [Rect(x: 0, y: 0, width: 475, height: 475), Rect(x: 5, y: 5, width: 900, height: 475)] {
            #expect(Renderer.thumbnailRect(crop, in: rect) == rect)
        }
    }

    @Test func aWholeThumbnailFillsItsRectWhateverItsRounding() {
        // 427x320 of a 4000x3000 photo (4:3 rounds up) and 426x320 (as if it rounded down), in
        // pages of 4:3 up to a 4K screen's.
        for thumbnail in [Bitmap(width: 427, height: 320), Bitmap(width: 426, height: 320)] {
            for height in [100.0, 1080, 2160] {
                let page = Rect(x: 3, y: 0, width: height * 4 / 3, height: height)
                #expect(Renderer.thumbnailRect(thumbnail, in: page) == page)
            }
        }
    }

    /// The renderer's shortcuts (what the crop leaves uncovered is drawn under it) give the
    /// picture drawn whole: a page over black, and the opening's carried photo over the grid.
    @Test func aCroppedThumbnailsPageIsDrawnAsWhole() {
        var rng = SplitMix64(seed: 31)
        let photos = TestPhotos()
        photos.thumbnails[0] = TestImages.structured(width: 40, height: 20, using: &rng)
        photos.thumbnails[1] = TestImages.structured(width: 20, height: 40, using: &rng)
        let renderer = Renderer(grid: Settings.Grid())
        var target = Bitmap(width: 160, height: 100)
        let cells = [GridCell(index: 0, rect: Rect(x: 4, y: 4, width: 34, height: 34)),
                     GridCell(index: 1, rect: Rect(x: 42, y: 4, width: 34, height: 34))]
        for (index, rect, mode, background) in [(0, Rect(x: 0, y: 40, width: 160, height: 18.5), SceneMode.pager, 1.0),
                                                (1, Rect(x: 70, y: 0, width: 20.3, height: 100), .pager, 1),
                                                (0, Rect(x: 2.5, y: 30, width: 150, height: 20), .opening, 0.7)] {
            let photo = PhotoPlacement(index: index, rect: rect)
            let frame = SceneFrame(time: 0, mode: mode, currentIndex: index, gridScroll: 0, drawsGrid: mode != .pager,
                                   gridCells: cells, hiddenIndex: mode == .pager ? nil : index, backgroundAlpha: background,
                                   pages: mode == .pager ? [photo] : [], movingPhoto: mode == .pager ? nil : photo)
            expectRenderedAsDrawnWhole(frame, renderer, photos, "photo \(index) in \(rect)", target: &target)
        }
    }
}
