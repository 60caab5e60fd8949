import Blitter
import Clips
import Config
import Foundation
import Geometry
import Photos
import Scene
import Testing
@testable import Rendering

/// Flat grey thumbnails; badges by index.
private final class Cells: PhotoImages {
    var thumbnails: [Int: Bitmap] = [:]
    var badges: [Int: String] = [:]
    func thumbnail(_ index: Int) -> Bitmap? { thumbnails[index] }
    func screenImage(_ index: Int) -> MipChain? { nil }
    func badge(_ index: Int) -> String? { badges[index] }
}

/// SPEC §12: a clip's grid cell shows its duration in its bottom-right corner, white over a soft
/// shadow, sized from the cell; set once per text and size, never per frame.
@Suite struct CellBadgeTests {
    static let grey: UInt32 = 0x80_80_80
    static let side = 200.0

    /// Two cells of 200 px, side by side, 10 px from the top and left, scrolled up by `scroll`.
    private static func frame(scroll: Double = 0) -> SceneFrame {
        let cells = (0..<2).map { GridCell(index: $0, rect: Rect(x: 10 + Double($0) * 210, y: 10 - scroll, width: side, height: side)) }
        return SceneFrame(time: 0, mode: .grid, currentIndex: nil, gridScroll: scroll, drawsGrid: true, gridCells: cells,
                          hiddenIndex: nil, backgroundAlpha: 0, pages: [], movingPhoto: nil)
    }

    private static func cells() -> Cells {
        let cells = Cells()
        var flat = Bitmap(width: Int(side), height: Int(side))
        flat.fill(flat.bounds, color: grey)
        cells.thumbnails = [0: flat, 1: flat]
        return cells
    }

    /// The pixels of the cell at `origin` that differ from `base`.
    private static func marked(_ bitmap: Bitmap, origin: (x: Int, y: Int), base: UInt32) -> [(x: Int, y: Int, pixel: UInt32)] {
        var marked: [(x: Int, y: Int, pixel: UInt32)] = []
        for y in 0..<Int(side) {
            for x in 0..<Int(side) where bitmap[origin.x + x, origin.y + y] != base {
                marked.append((x: x, y: y, pixel: bitmap[origin.x + x, origin.y + y]))
            }
        }
        return marked
    }

    @Test func aClipsDurationSitsInTheBottomRightCornerWhiteOverAShadow() {
        let cells = Self.cells()
        cells.badges[0] = "0:12"
        let renderer = Renderer(grid: Settings.Grid(), badges: CellBadgePainter(font: "DejaVu Sans"))
        var target = Bitmap(width: 430, height: 220)
        renderer.render(Self.frame(), images: cells, into: &target)
        // The cell without a badge is its thumbnail alone.
        #expect(Self.marked(target, origin: (220, 10), base: Self.grey).isEmpty)

        let marked = Self.marked(target, origin: (10, 10), base: Self.grey)
        let white = marked.filter { $0.pixel == Pixel.white }
        let darker = marked.filter { $0.pixel & 0xFF < 0x80 }
        #expect(!white.isEmpty && !darker.isEmpty)
        // The text: 24 px (12% of the side) digits ending 12 px (6%) from the right and bottom.
        let size = CellBadgePainter.pixelSize(cellSide: Self.side), margin = CellBadgePainter.margin(cellSide: Self.side)
        #expect(size == 24 && margin == 12)
        let xs = white.map { $0.x }, ys = white.map { $0.y }
        let ink = (minX: xs.min()!, maxX: xs.max()!, minY: ys.min()!, maxY: ys.max()!)
        #expect((Int(Self.side) - margin - 3...Int(Self.side) - margin - 1).contains(ink.maxX), "\(ink)")
        #expect((Int(Self.side) - margin - 3...Int(Self.side) - margin - 1).contains(ink.maxY), "\(ink)")
        let height = ink.maxY - ink.minY + 1, width = ink.maxX - ink.minX + 1
        #expect(height >= size / 2 && height <= size, "\(height)")
        #expect(width >= size && width <= 3 * size, "\(width)")
        // Nothing outside the corner: the shadow stays near the text.
        #expect(marked.allSatisfy { $0.x >= ink.minX - 8 && $0.y >= ink.minY - 8 })
    }

    @Test func theBadgeIsDrawnOverThePlaceholderToo() {
        let cells = Self.cells()
        cells.thumbnails[1] = nil
        cells.badges[1] = "1:05"
        var target = Bitmap(width: 430, height: 220)
        Renderer(grid: Settings.Grid(), badges: CellBadgePainter(font: "DejaVu Sans")).render(Self.frame(), images: cells, into: &target)
        let marked = Self.marked(target, origin: (220, 10), base: Settings.Grid().placeholderColor)
        #expect(marked.contains { $0.pixel == Pixel.white })
        #expect(marked.allSatisfy { $0.x > 100 && $0.y > 100 })
    }

    @Test func eachTextIsSetOncePerSizeNotPerFrame() {
        let cells = Self.cells()
        cells.badges = [0: "0:12", 1: "0:12"]
        let painter = CellBadgePainter(font: "DejaVu Sans")
        let renderer = Renderer(grid: Settings.Grid(), badges: painter)
        var target = Bitmap(width: 430, height: 220)
        for step in 0..<20 {
            renderer.render(Self.frame(scroll: Double(step) * 3), images: cells, into: &target)
            var direct = Bitmap(width: 430, height: 220)
            renderer.renderDirectly(Self.frame(scroll: Double(step) * 3), images: cells, into: &direct)
            #expect(target.pixels == direct.pixels, "step \(step)")
        }
        #expect(painter.rasterised == 1)
        cells.badges[1] = "12:34"
        renderer.render(Self.frame(), images: cells, into: &target)
        renderer.render(Self.frame(scroll: 1), images: cells, into: &target)
        #expect(painter.rasterised == 2)
    }

    @Test func theSizeFollowsTheCell() {
        #expect(CellBadgePainter.pixelSize(cellSide: 98) == 12)
        #expect(CellBadgePainter.pixelSize(cellSide: 40) == 9)  // never below 9 px
        #expect(CellBadgePainter.margin(cellSide: 20) == 2)
        let painter = CellBadgePainter(font: "DejaVu Sans")
        let small = painter.badge("0:12", cellSide: 100), large = painter.badge("0:12", cellSide: 300)
        #expect(small != nil && large != nil)
        #expect((large?.text.height ?? 0) > 2 * (small?.text.height ?? 0))
    }

    @Test func onlyAClipsCellHasABadge() {
        let clip = ClipInfo(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", storedWidth: 1920, storedHeight: 1080,
                            rotation: 0, duration: 12.7, frameRate: 30)
        func info(_ name: String, clip: ClipInfo? = nil) -> PhotoInfo {
            PhotoInfo(path: "/p/" + name, fileSize: 1, modified: Date(timeIntervalSince1970: 0), format: "JPEG",
                      storedSize: ImageSize(width: 1920, height: 1080), orientation: .normal, clip: clip)
        }
        let items = [LibraryItem.still(info("a.jpg")), LibraryItem(kind: .clip(clip), picture: info("b.mp4", clip: clip)),
                     LibraryItem(kind: .livePhoto(motion: info("c.mov", clip: clip)), picture: info("c.heic"))]
        #expect(PhotoStore.badges(of: items) == [nil, "0:12", nil])
    }
}
