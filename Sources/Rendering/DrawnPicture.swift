import Blitter
import Geometry
import Photos

/// What a frame's picture is made of, in drawing order (SPEC §3, as `Renderer.renderDirectly`
/// draws it): a base over the whole screen, then items, each with the pixels it may write and
/// everything those pixels depend on. Where two pictures have equal items at every position of
/// their lists, their pixels are equal; so the rows that changed between two frames are the rows
/// of the items that differ, before and after. Pure values, built by the renderer once a frame.
struct DrawnPicture: Equatable {
    /// What lies under every item.
    enum Base: Equatable {
        /// Pager black (also a grid under an opaque background: its cells cannot show).
        case black
        /// The grid's background colour under its cells, with black at `dim` (256ths) over all.
        case grid(background: UInt32, dim: Int)
        /// Black with the pages dissolved into it (slideshow): the same pages laid over each
        /// other make another picture.
        case dissolved
    }

    enum Content: Equatable {
        /// A photo or grid cell: its exact rect, the image drawn (nil: the placeholder colour), its
        /// alpha in 256ths, its content version (a clip's frame drawn from the same storage) and
        /// a cell's badge (a clip's duration; the cell's size gives the badge's).
        case picture(rect: Rect, image: ImageIdentity?, alpha: Int, contentVersion: Int, badge: String? = nil)
        /// The cell a transition carries: nothing drawn, kept so the cells after it keep their place.
        case hiddenCell
        /// A caption laid over its page, moved `offsetX` whole pixels, at `alpha` (by its
        /// identity: its text is never compared per frame).
        case caption(Caption.Identity, offsetX: Int, alpha: Double)
    }

    struct Item: Equatable {
        /// The pixels it may write, on screen.
        var area: PixelRect
        var content: Content
    }

    var width: Int
    var height: Int
    var placeholderColor: UInt32
    var base: Base
    var items: [Item] = []

    /// The rows whose pixels may differ from those of `old` (nil: not known, every row).
    func changedRows(since old: DrawnPicture?) -> RowSet {
        guard let old, old.width == width, old.height == height, old.placeholderColor == placeholderColor,
              old.base == base else { return .all(height) }
        var rows = RowSet()
        for i in 0..<max(old.items.count, items.count) {
            let before = i < old.items.count ? old.items[i] : nil
            let after = i < items.count ? items[i] : nil
            guard before != after else { continue }
            for item in [before, after] {
                if let area = item?.area, !area.isEmpty { rows.insert(area.minY..<area.maxY) }
            }
        }
        return rows.clamped(to: 0..<height)
    }

    /// How many whole rows down (negative: up) the pixels of `old` moved to give this picture's,
    /// when this picture is `old` scrolled: every row of it that lies over a row of `old`,
    /// shifted, holds that row's pixels, and only the rows scrolled in need drawing (the grid
    /// following a finger, or coasting). nil when it is not that: another base or size, a shift
    /// that is not whole rows or leaves no row in common, or any item over the rows in common
    /// that is not a grid cell moved by the same rows as the others (a thumbnail that arrived, a
    /// cell that went).
    ///
    /// Linear in the items: the shift comes from a cell whose image `old` shows too (the middle
    /// one, else the first or last: a scroll of less than the screen keeps one of them), and both
    /// lists hold the cells in the grid's order, which a scroll keeps.
    func scroll(from old: DrawnPicture) -> Int? {
        guard old.width == width, old.height == height, old.placeholderColor == placeholderColor, old.base == base,
              case .grid(_, let dim) = base, dim == 0, !items.isEmpty else { return nil }
        /// How far the cell at `index` moved since `old`, if `old` shows its image.
        func moved(_ index: Int) -> Double? {
            guard case .picture(let rect, let image?, _, _, _) = items[index].content else { return nil }
            for before in old.items {
                if case .picture(let oldRect, image, _, _, _) = before.content { return rect.minY - oldRect.minY }
            }
            return nil
        }
        let shift = moved(items.count / 2) ?? moved(0) ?? moved(items.count - 1)
        guard let shift, shift != 0, shift == shift.rounded(), abs(shift) < Double(height) else { return nil }
        let dy = Int(shift)
        // The rows this picture takes from `old`, and the items over them before and after.
        let common = PixelRect(x: 0, y: max(0, dy), width: width, height: height - abs(dy))
        func shifted(_ area: PixelRect) -> PixelRect { PixelRect(x: area.x, y: area.y + dy, width: area.width, height: area.height) }
        let now = items.filter { !$0.area.intersection(common).isEmpty }
        let before = old.items.filter { !shifted($0.area).intersection(common).isEmpty }
        guard now.count == before.count else { return nil }
        for (item, was) in zip(now, before) {
            // The same cell, moved by the shift: over the rows in common, the same pixels.
            guard case .picture(let rect, let image, let alpha, let version, let badge) = item.content,
                  case .picture(let oldRect, image, alpha, version, badge) = was.content,
                  rect == oldRect.offsetBy(dx: 0, dy: shift),
                  item.area.intersection(common) == shifted(was.area).intersection(common) else { return nil }
        }
        return dy
    }
}

/// An image's pixel storage, equal while the same storage is drawn. It holds the bitmap, so the
/// storage cannot be freed and reused at the same address while a picture names it (as
/// `GridLayerCache` holds its thumbnails); content that changes in place says so with a version.
struct ImageIdentity: Equatable {
    private let bitmap: Bitmap
    private let address: UnsafeRawPointer?

    init(_ bitmap: Bitmap) {
        self.bitmap = bitmap
        address = bitmap.pixels.withUnsafeBytes { $0.baseAddress }
    }

    static func == (a: ImageIdentity, b: ImageIdentity) -> Bool {
        a.address == b.address && a.bitmap.width == b.bitmap.width && a.bitmap.height == b.bitmap.height
            && a.bitmap.stride == b.bitmap.stride
    }
}
