import Blitter
import Config
import Geometry
import Scene
import TestSupport
import Testing
@testable import Rendering

/// Thumbnails and badges that tests change between frames, as the decoder does.
private final class ScrollPhotos: PhotoImages {
    var thumbnails: [Int: Bitmap] = [:]
    var badges: [Int: String] = [:]
    func thumbnail(_ index: Int) -> Bitmap? { thumbnails[index] }
    func screenImage(_ index: Int) -> MipChain? { nil }
    func badge(_ index: Int) -> String? { badges[index] }
}

/// The plain grid scrolled by whole rows: the renderer moves the rows it keeps (`moveRows`) and
/// draws only the rows scrolled in, when `DrawnPicture.scroll` says the last picture is this one
/// shifted. The picture must stay exactly the one drawn whole, frame after frame.
@Suite struct GridScrollTests {
    static let screen = Size(width: 160, height: 100)
    static let photoCount = 40

    /// The grid as `GridView` lays it out: 4 columns, 4 px spacing, scrolled up by `scroll`.
    private static func frame(scroll: Double) -> SceneFrame {
        let spacing = 4.0, side = (screen.width - 5 * spacing) / 4, step = side + spacing
        let cells = (0..<photoCount).compactMap { index -> GridCell? in
            let rect = Rect(x: spacing + Double(index % 4) * step, y: spacing + Double(index / 4) * step - scroll,
                            width: side, height: side)
            return rect.maxY > 0 && rect.minY < screen.height ? GridCell(index: index, rect: rect) : nil
        }
        return SceneFrame(time: 0, mode: .grid, currentIndex: nil, gridScroll: scroll, drawsGrid: true, gridCells: cells,
                          hiddenIndex: nil, backgroundAlpha: 0, pages: [], movingPhoto: nil)
    }

    /// Thumbnails of both shapes (some scaled into their cells, some at a half-pixel crop), a few
    /// missing (placeholders) and a few clips' badges.
    private static func photos(using rng: inout SplitMix64) -> ScrollPhotos {
        let photos = ScrollPhotos()
        for index in 0..<photoCount where index % 7 != 3 {
            let width = [35, 48, 36, 70][index % 4]
            photos.thumbnails[index] = TestImages.structured(width: width, height: 35, using: &rng)
        }
        photos.badges = [2: "0:12", 9: "1:05", 17: "0:03"]
        return photos
    }

    @Test func aScrollFrameByFrameIsTheGridDrawnWhole() {
        var rng = SplitMix64(seed: 31)
        let photos = Self.photos(using: &rng)
        let renderer = Renderer(grid: Settings.Grid(), badges: CellBadgePainter())
        var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height), color: 0xAB_CD_EF)
        // Up and down by whole rows, by fractions (cells round on their own, so some frames are
        // not a shift), by more than the screen, and back; a thumbnail arrives and a badge
        // appears on the way.
        let scrolls: [Double] = [0, 3, 10, 10.5, 11, 11.4, 30, 29, 12.25, 60, 61, 175, 170, 90, 89.5, 88, 20, 0, 7, 0]
        for (step, scroll) in scrolls.enumerated() {
            if step == 8 { photos.thumbnails[10] = TestImages.structured(width: 48, height: 35, using: &rng) }
            if step == 14 { photos.badges[21] = "0:42" }
            expectRenderedAsDrawnWhole(Self.frame(scroll: scroll), renderer, photos, "step \(step), scroll \(scroll)", target: &target)
        }
    }

    /// What makes it cheap: the rows a scroll keeps are moved, not drawn again (a pixel changed
    /// behind the renderer's back moves with them), and a frame that is not a shift of the last
    /// is drawn whole.
    @Test func theRowsKeptAreMovedNotDrawn() {
        var rng = SplitMix64(seed: 32)
        let photos = Self.photos(using: &rng)
        let renderer = Renderer(grid: Settings.Grid())
        var target = Bitmap(width: Int(Self.screen.width), height: Int(Self.screen.height))
        renderer.render(Self.frame(scroll: 0), images: photos, into: &target)
        let marker: UInt32 = 0x00FE_01FE
        target[60, 50] = marker
        renderer.render(Self.frame(scroll: 6), images: photos, into: &target)
        #expect(target[60, 44] == marker)
        renderer.render(Self.frame(scroll: 2), images: photos, into: &target)
        #expect(target[60, 48] == marker)
        // 2 -> 2.5: the cells above the screen's top round the other way, so not one shift.
        renderer.render(Self.frame(scroll: 2.5), images: photos, into: &target)
        #expect(!target.pixels.contains(marker))
    }

    // MARK: DrawnPicture.scroll

    private static func picture(_ frame: SceneFrame, images: [Int: Bitmap], dim: Int = 0) -> DrawnPicture {
        var picture = DrawnPicture(width: Int(screen.width), height: Int(screen.height), placeholderColor: 0x30_30_30,
                                   base: .grid(background: 0x10_10_10, dim: dim))
        let bounds = PixelRect(x: 0, y: 0, width: Int(screen.width), height: Int(screen.height))
        for cell in frame.gridCells {
            let rect = Renderer.onWholePixels(cell.rect)
            picture.items.append(DrawnPicture.Item(
                area: rect.enclosingPixels.intersection(bounds),
                content: .picture(rect: rect, image: images[cell.index].map(ImageIdentity.init), alpha: PixelMath.opaque,
                                  contentVersion: 0)))
        }
        return picture
    }

    @Test func aPictureIsAScrollOnlyWhenEveryCellItKeepsMovedByTheSameRows() {
        var rng = SplitMix64(seed: 33)
        var images = Self.photos(using: &rng).thumbnails
        let before = Self.picture(Self.frame(scroll: 20), images: images)
        #expect(Self.picture(Self.frame(scroll: 27), images: images).scroll(from: before) == -7)
        #expect(Self.picture(Self.frame(scroll: 5), images: images).scroll(from: before) == 15)
        // Not a shift: the same picture, a fraction, the whole screen or more, dimmed.
        #expect(Self.picture(Self.frame(scroll: 20), images: images).scroll(from: before) == nil)
        #expect(Self.picture(Self.frame(scroll: 20.5), images: images).scroll(from: before) == nil)
        #expect(Self.picture(Self.frame(scroll: 120), images: images).scroll(from: before) == nil)
        #expect(Self.picture(Self.frame(scroll: 27), images: images, dim: 40)
            .scroll(from: Self.picture(Self.frame(scroll: 20), images: images, dim: 40)) == nil)
        // A thumbnail that arrived in the rows kept (cell 5, on screen in both) is no shift; one
        // in the rows scrolled in (cell 13, below the screen before) does not matter.
        var arrived = images
        arrived[5] = TestImages.structured(width: 35, height: 35, using: &rng)
        #expect(Self.picture(Self.frame(scroll: 27), images: arrived).scroll(from: before) == nil)
        images[13] = TestImages.structured(width: 35, height: 35, using: &rng)
        #expect(Self.picture(Self.frame(scroll: 60), images: images).scroll(from: before) == -40)
        // A cell gone from the rows kept (the library changed) is no shift.
        var gone = Self.picture(Self.frame(scroll: 27), images: images)
        gone.items.remove(at: 5)
        #expect(gone.scroll(from: before) == nil)
    }
}
