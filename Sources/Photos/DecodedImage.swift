import Blitter
import Colour

/// A decoded photo, upright and resampled to the size that was asked for.
public struct DecodedImage: Sendable {
    public var bitmap: Bitmap
    public let header: ImageHeader
    /// The factor the decoder scaled by while decoding (1/1 for one that cannot), and its output
    /// size (stored orientation), before resampling.
    public let scale: ScalingFactor
    public let decodedSize: ImageSize
    /// Set when the decoder warned (truncated or corrupt data): the image is shown, partly grey
    /// as djpeg shows it, and the warning is logged once.
    public let warning: String?
    /// The colour space the file describes, when it describes one (nil: sRGB). The decoder leaves
    /// the bitmap's pixels in that space; `PhotoDecoder.decode` converts them to sRGB.
    public var colour: ColourDescription? = nil
    /// Set when the file's colour description cannot be used (its ICC chunks do not join, lcms
    /// cannot read the profile...): the pixels are shown unconverted, and the warning is logged
    /// once, without calling the photo damaged.
    public var colourWarning: String? = nil
}
