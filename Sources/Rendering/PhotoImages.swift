import Blitter
import Photos

/// Decoded pixels the renderer may draw, looked up without waiting: a photo not decoded yet is
/// nil, and the renderer draws a placeholder instead (the grid never waits for a decoder).
public protocol PhotoImages: AnyObject {
    /// A thumbnail that covers a grid cell, in the photo's aspect ratio; a panorama's (past 2:1) is
    /// its centred crop (`Renderer.thumbnailRect` draws it where it belongs in the photo's rect).
    func thumbnail(_ index: Int) -> Bitmap?
    /// The photo at the size it has on screen in the pager, with its half-size levels for the
    /// transitions that shrink it (drawn from a level within 2x of the target, so it never aliases).
    func screenImage(_ index: Int) -> MipChain?
    /// The photo's caption, once read (by the decode worker, with the photo's screen image).
    func caption(_ index: Int) -> Caption?
    /// What the item's grid cell shows in its corner: a clip's duration (`0:12`); nil for a
    /// photo or a Live Photo (iOS shows none for those in the grid).
    func badge(_ index: Int) -> String?
}

extension PhotoImages {
    /// No captions: pictures only.
    public func caption(_ index: Int) -> Caption? { nil }
    /// No badges: stills only.
    public func badge(_ index: Int) -> String? { nil }
}
