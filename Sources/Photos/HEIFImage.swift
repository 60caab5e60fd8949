import Blitter
import CHeif

/// A decoded HEIF image: libheif's interleaved 8-bit RGB or RGBA plane, released with the last
/// reference.
final class HEIFImage {
    let pointer: OpaquePointer
    let hasAlpha: Bool

    init(_ pointer: OpaquePointer, alpha: Bool) {
        self.pointer = pointer
        hasAlpha = alpha
    }

    deinit {
        heif_image_release(pointer)
    }

    /// What libheif warned of while decoding (non-strict decoding: a damaged tile), if anything.
    var warning: String? {
        var warnings = [heif_error](repeating: heif_error(), count: 4)
        let count = Int(heif_image_get_decoding_warnings(pointer, 0, &warnings, Int32(warnings.count)))
        let messages = warnings.prefix(max(0, min(count, warnings.count))).compactMap { $0.message.map { String(cString: $0) } }
        return messages.isEmpty ? nil : messages.joined(separator: "; ")
    }

    /// The pixels as XRGB8888 with a zero X byte; alpha composed over black (each colour
    /// multiplied by its alpha, unless libheif says they are premultiplied already).
    func bitmap(failure: HEIFFailure) throws(PhotoError) -> Bitmap {
        let channel = heif_channel_interleaved
        let width = Int(heif_image_get_width(pointer, channel)), height = Int(heif_image_get_height(pointer, channel))
        let bits = Int(heif_image_get_bits_per_pixel_range(pointer, channel))
        var stride: Int32 = 0
        guard width > 0, height > 0, bits == 8, let plane = heif_image_get_plane_readonly(pointer, channel, &stride) else {
            throw failure.fail(.corrupt(format: failure.format, "libheif gave a \(width)x\(height) image of \(bits)-bit samples"))
        }
        let bytesPerPixel = hasAlpha ? 4 : 3
        let rowBytes = Int(stride)
        guard rowBytes >= width * bytesPerPixel else {
            throw failure.fail(.corrupt(format: failure.format, "libheif gave rows of \(rowBytes) bytes for \(width) pixels"))
        }
        let premultiplied = heif_image_is_premultiplied_alpha(pointer) != 0
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = plane + y * rowBytes
                let outRow = y * width
                if !hasAlpha {
                    for x in 0..<width {
                        let p = row + 3 * x
                        out[outRow + x] = UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                    }
                } else if premultiplied {
                    for x in 0..<width {
                        let p = row + 4 * x
                        out[outRow + x] = UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                    }
                } else {
                    for x in 0..<width {
                        let p = row + 4 * x
                        let a = UInt32(p[3])
                        let r = (UInt32(p[0]) * a + 127) / 255, g = (UInt32(p[1]) * a + 127) / 255, b = (UInt32(p[2]) * a + 127) / 255
                        out[outRow + x] = r << 16 | g << 8 | b
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, stride: width, pixels: pixels)
    }
}
