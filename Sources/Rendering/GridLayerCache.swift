import Blitter
import Config
import Geometry
import Scene

/// The grid drawn once while it stays the same, for the frames that lay something over it (the
/// transitions): its key is everything the picture depends on, down to which thumbnail bitmaps
/// were drawn, so a thumbnail that arrives or changes redraws it. Where it pays
/// (`PackedBitmap.dimsFaster`) the frames read it packed, 3 bytes a pixel: each dims the layer
/// afresh around the photo, and those reads are what a drag's frame waits on most (a quarter
/// fewer bytes took about 10% off it at 1920x1080). Costs a screen-sized bitmap to draw into and
/// its packed copy (7 bytes a pixel in all), kept from the first transition on: a transition's
/// first frame then draws the grid into pages already mapped, and its last gives nothing back to
/// the kernel. (At 1920x1080, the first frame of a dismiss took 13 ms with the layer's pages
/// mapped afresh, 4-6 ms with them kept, and packing adds 0.5 ms; the frames after it take 3.)
final class GridLayerCache {
    private struct Key: Equatable {
        var width: Int
        var height: Int
        var backgroundColor: UInt32
        var placeholderColor: UInt32
        var hiddenIndex: Int?
        var cells: [GridCell]
        var thumbnails: [ThumbnailIdentity?]
        /// The cells' badges (a clip's duration), in the order of `cells`.
        var badges: [String?]
    }

    /// A thumbnail's pixel storage. The cache keeps the bitmaps it drew (`drawn`), so storage with
    /// this address cannot be freed and reused, nor changed in place, while the key holds it.
    private struct ThumbnailIdentity: Equatable {
        var address: UnsafeRawPointer?
        var width: Int
        var height: Int
        var stride: Int

        init(_ bitmap: Bitmap) {
            address = bitmap.pixels.withUnsafeBytes { $0.baseAddress }
            width = bitmap.width
            height = bitmap.height
            stride = bitmap.stride
        }
    }

    private var key: Key?
    private var drawn: [Bitmap?] = []
    private var bitmap = Bitmap(width: 0, height: 0)
    private var packed = PackedBitmap(width: 0, height: 0)
    private let packs: Bool
    /// Changes whenever the layer's pixels may change (drawn again, or let go): a picture drawn
    /// from the layer of one version holds those pixels while the version stays.
    private(set) var version = 0

    /// The layer as the frames read it.
    enum Layer {
        case drawn(Bitmap)
        case packed(PackedBitmap)

        /// `rect` of the layer into `target` with black over it at `alpha`.
        func dim(_ rect: PixelRect, alpha: Double, into target: inout Bitmap) {
            switch self {
            case .drawn(let bitmap): target.blend(rect, color: Pixel.black, alpha: alpha, over: bitmap)
            case .packed(let packed): target.blend(rect, color: Pixel.black, alpha: alpha, over: packed)
            }
        }
    }

    /// `packs`: whether the frames read the layer packed.
    init(packs: Bool) {
        self.packs = packs
    }

    /// Lets the thumbnails the layer drew go, for the frames that draw no layer (the pager, the
    /// plain grid): they may have left the photo cache, whose limit then no longer counts them.
    /// The next transition draws the layer again, once, into the same storage.
    func clear() {
        guard key != nil else { return }
        version &+= 1
        key = nil
        drawn = []
    }

    /// The grid of `frame` at `size`, drawn with `draw(frame, thumbnails, badges, &layer)` when it
    /// differs from the last one.
    func layer(for frame: SceneFrame, images: PhotoImages, size: PixelRect, grid: Settings.Grid,
               draw: (SceneFrame, [Bitmap?], [String?], inout Bitmap) -> Void) -> Layer {
        let thumbnails = frame.gridCells.map { $0.index == frame.hiddenIndex ? nil : images.thumbnail($0.index) }
        let badges = frame.gridCells.map { $0.index == frame.hiddenIndex ? nil : images.badge($0.index) }
        let newKey = Key(width: size.width, height: size.height, backgroundColor: grid.backgroundColor,
                         placeholderColor: grid.placeholderColor, hiddenIndex: frame.hiddenIndex,
                         cells: frame.gridCells, thumbnails: thumbnails.map { $0.map(ThumbnailIdentity.init) },
                         badges: badges)
        if newKey != key {
            version &+= 1
            key = nil
            if bitmap.width != size.width || bitmap.height != size.height {
                bitmap = Bitmap(width: size.width, height: size.height)
            }
            draw(frame, thumbnails, badges, &bitmap)
            if packs { packed.pack(bitmap) }
            key = newKey
            drawn = thumbnails
        }
        return packs ? .packed(packed) : .drawn(bitmap)
    }
}
