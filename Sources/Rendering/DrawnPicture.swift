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
