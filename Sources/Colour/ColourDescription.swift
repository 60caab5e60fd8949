/// How a photo's pixels are coloured, as its file says (SPEC §11): an embedded ICC profile (JPEG
/// APP2, HEIF colr prof, PNG iCCP, WebP ICCP) or HEIF/AVIF's coding-independent code points (colr
/// nclx, ITU-T H.273). A photo without one is sRGB and is not converted.
public enum ColourDescription: Hashable, Sendable {
    /// The ICC profile's bytes, whole (a JPEG's APP2 chunks joined).
    case icc([UInt8])
    /// ITU-T H.273 code points: colour primaries, transfer characteristics, matrix coefficients.
    case cicp(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool)
}
