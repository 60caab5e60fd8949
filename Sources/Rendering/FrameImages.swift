import Blitter
import Photos

/// The images one frame is drawn from, each looked up once: the decode workers add images while
/// the loop composes, and the picture the renderer records (`DrawnPicture`, whose differences say
/// which rows the display copies) must name exactly what it drew. A thumbnail that arrived between
/// drawing a cell and recording it would be recorded as drawn, and its rows never copied.
final class FrameImages: PhotoImages {
    private let source: PhotoImages
    private var thumbnails: [Int: Bitmap?] = [:]
    private var screenImages: [Int: MipChain?] = [:]
    private var captions: [Int: Caption?] = [:]

    init(_ source: PhotoImages) {
        self.source = source
    }

    func thumbnail(_ index: Int) -> Bitmap? {
        if let known = thumbnails[index] { return known }
        let image = source.thumbnail(index)
        thumbnails[index] = .some(image)
        return image
    }

    func screenImage(_ index: Int) -> MipChain? {
        if let known = screenImages[index] { return known }
        let image = source.screenImage(index)
        screenImages[index] = .some(image)
        return image
    }

    /// Not held: the items change only between frames (`PhotoStore.replaceItems`, on this thread).
    func badge(_ index: Int) -> String? { source.badge(index) }

    func caption(_ index: Int) -> Caption? {
        if let known = captions[index] { return known }
        let caption = source.caption(index)
        captions[index] = .some(caption)
        return caption
    }
}
