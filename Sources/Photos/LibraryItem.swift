import Clips
import Foundation

/// One item of the library, as the grid and the pager show it: a still photo, a clip or a Live
/// Photo pair (SPEC §12). Every item has a picture that stands for it (the still itself;
/// a clip's poster frame; a Live Photo's photo): its size lays the item out, and it is what the
/// grid's thumbnail and the pager's page show at rest. The Scene sees only the sizes; the
/// Renderer and the decode queue ask for an item's images by its index.
public struct LibraryItem: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A photo: its picture is all there is.
        case still
        /// A clip: its picture is the poster frame (the first frame that decodes).
        case clip(ClipInfo)
        /// A Live Photo: the photo, and its motion, a clip with the same base name (`IMG_1234.HEIC`
        /// and `IMG_1234.MOV`); `motion.clip` is never nil.
        case livePhoto(motion: PhotoInfo)
    }

    public let kind: Kind
    /// The still that stands for the item.
    public let picture: PhotoInfo

    public init(kind: Kind, picture: PhotoInfo) {
        self.kind = kind
        self.picture = picture
    }

    public static func still(_ photo: PhotoInfo) -> LibraryItem {
        LibraryItem(kind: .still, picture: photo)
    }

    /// What plays for this item (a clip's own file; a Live Photo's motion), nil for a still.
    public var motion: (path: String, clip: ClipInfo)? {
        switch kind {
        case .still: return nil
        case .clip(let clip): return (picture.path, clip)
        case .livePhoto(let motion): return motion.clip.map { (motion.path, $0) }
        }
    }

    /// The item's file (a Live Photo's: its photo).
    public var path: String { picture.path }
    /// The file name without its directory.
    public var name: String { picture.name }
    /// The displayed size, after the orientation: the one layout uses.
    public var size: ImageSize { picture.size }
    public var modified: Date { picture.modified }
}
