import Blitter
import CLcms2

/// An lcms transform from a photo's colour space to sRGB on XRGB8888 pixels, owned (deleted once).
/// It holds lcms's one-pixel cache, so it is used by one thread at a time (its converter's).
final class ColourTransform {
    /// Perceptual, with black point compensation. For the matrix-shaper profiles nearly every
    /// camera and phone embeds (Display P3, Adobe RGB, sRGB-like ones) perceptual is relative
    /// colorimetric: lcms has no perceptual table there, out-of-gamut colours are clipped, and the
    /// result is what jpgicc, tificc and Pillow's ImageCms give by default. For the LUT profiles
    /// some editors and scanners embed, perceptual is the intent made for photographs (the gamut
    /// compressed as the profile's maker chose, not clipped). Black point compensation maps a
    /// profile's black that is not zero (version-2 profiles) to sRGB's, so shadows are neither
    /// lifted nor crushed; where both blacks are zero it changes nothing.
    static let intent = UInt32(INTENT_PERCEPTUAL)
    static let flags = UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION)

    private let handle: cmsHTRANSFORM

    init(from source: ColourProfile, to destination: ColourProfile, in context: LcmsContext) throws {
        handle = try context.call("cmsCreateTransform") {
            cmsCreateTransformTHR($0, source.handle, vt_lcms_type_bgrx_8, destination.handle, vt_lcms_type_bgrx_8,
                                  Self.intent, Self.flags)
        }
    }

    deinit {
        cmsDeleteTransform(handle)
    }

    /// Converts `bitmap`'s pixels in place, row by row over its stride; the X bytes are left as
    /// they are.
    func apply(to bitmap: inout Bitmap) {
        guard !bitmap.isEmpty, let width = UInt32(exactly: bitmap.width), let height = UInt32(exactly: bitmap.height),
              let rowBytes = UInt32(exactly: bitmap.stride * MemoryLayout<UInt32>.stride) else { return }
            // lcms2 reads and writes `width` pixels of TYPE_BGRA_8 (4 bytes) a line, lines
            // `rowBytes` apart: the bitmap's own stride, in place.
        bitmap.pixels.withUnsafeMutableBytes { buffer in
            cmsDoTransformLineStride(handle, buffer.baseAddress, buffer.baseAddress, width, height, rowBytes, rowBytes, 0, 0)
        }
    }
}
