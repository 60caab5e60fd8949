import Blitter

/// One decoded frame of a clip, upright (the display matrix applied), in XRGB8888 at the size the
/// screen needs.
public struct ClipFrame: @unchecked Sendable {
    /// The frame's number in presentation order from the clip's start (0 is the first frame shown).
    public let index: Int
    /// Its presentation time in seconds from the clip's first frame.
    public let time: Double
    public let bitmap: Bitmap

    public init(index: Int, time: Double, bitmap: Bitmap) {
        self.index = index
        self.time = time
        self.bitmap = bitmap
    }
}
