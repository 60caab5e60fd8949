import Blitter
import CSpng
import Linux

/// Writes bitmaps as 8-bit RGB PNG files (colour type 2), for screenshots and `snapshot` output,
/// through libspng's encoder (`SpngWriter`), the same library that decodes PNG photos.
public enum PNGEncoder {
    /// zlib's level 1: `/screenshot` is encoded while a client waits. A 1920x1080 frame of a photo
    /// (or of a grid of them) takes 210-240 ms of CPU at level 1 against 620-680 ms at libspng's 6 (and
    /// 505-540 ms with the hand-made encoder libspng replaced, zlib at 6), for a file 4-6% larger.
    static let compressionLevel: Int32 = 1

    /// The complete PNG file for `bitmap`.
    public static func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        try encode(bitmap, filter: nil)
    }

    /// `encode` with every row using `filter` (0 None ... 4 Paeth) when given, each row's best of
    /// the five otherwise (libspng's heuristic: the smallest sum of absolute signed bytes).
    static func encode(_ bitmap: Bitmap, filter: UInt8?, level: Int32 = compressionLevel) throws -> [UInt8] {
        guard !bitmap.isEmpty else { throw PNGError.emptyImage(width: bitmap.width, height: bitmap.height) }
        let filters = filter.map { Int32(SPNG_FILTER_CHOICE_NONE.rawValue) << Int32(min($0, 4)) }
            ?? Int32(SPNG_FILTER_CHOICE_ALL.rawValue)
        return try SpngWriter().encodeRGB(rgbRows(bitmap), width: bitmap.width, height: bitmap.height,
                                          level: level, filters: filters)
    }

    /// Encodes `bitmap` and replaces `path` with it atomically (Linux's AtomicFile: a temporary in
    /// the same directory, flushed, renamed over `path`), so readers never see half a file. Throws
    /// PNGError, or SystemError naming `path`.
    public static func write(_ bitmap: Bitmap, to path: String) throws {
        try AtomicFile.write(encode(bitmap), to: path)
    }

    /// The bitmap's pixels as packed RGB bytes, row after row (its stride's padding and the X byte
    /// left out).
    static func rgbRows(_ bitmap: Bitmap) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 3)
        out.withUnsafeMutableBufferPointer { rgb in
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                var i = 0
                for y in 0..<bitmap.height {
                    let row = y * bitmap.stride
                    for x in 0..<bitmap.width {
                        let p = pixels[row + x]
                        rgb[i] = Pixel.red(p); rgb[i + 1] = Pixel.green(p); rgb[i + 2] = Pixel.blue(p)
                        i += 3
                    }
                }
            }
        }
        return out
    }
}
