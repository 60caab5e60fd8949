import Blitter
import CFFmpeg

/// A decoded frame converted by libswscale straight into an XRGB8888 `Bitmap`, resized on the way.
/// The target format is AV_PIX_FMT_RGB32 (BGRA on little endian: B, G, R, A in memory is
/// 0xAARRGGBB, the X byte being 0xFF), not BGR0 with the same layout: only RGB32 has libswscale's
/// SIMD YUV-to-RGB converters (SSSE3, NEON), three times faster at the clip's own size. Full-range video
/// (yuvj*, or color_range JPEG) and 10-bit formats included. The SwsContext is kept while the
/// frame's format and both sizes stay the same. Owns it.
final class ClipFrameScaler {
    /// The scaler's filter: bilinear. Going down (a 1080p clip on a smaller panel) libswscale
    /// widens the filter with the factor, so it does not alias, and it costs a third less than
    /// bicubic (ffmpeg's default), which keeps decode + conversion within 1.25x of the decode
    /// alone (vitrine-bench clip); at the clip's own size it is only a colour conversion.
    static let flags = Int32(SWS_BILINEAR)
    /// XRGB8888 in memory on a little-endian machine (every board Vitrine runs on).
    static let targetFormat = AV_PIX_FMT_BGRA

    private struct Key: Equatable {
        var width, height, format, colourspace: Int32
        var fullRange: Bool
        var targetWidth, targetHeight: Int
    }

    private var context: OpaquePointer?
    private var key: Key?

    deinit {
        sws_freeContext(context)
    }

    /// `frame` at `width` x `height` (both within 1...ClipLimits.maxDimension), or nil when
    /// libswscale cannot convert its pixel format.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) -> Bitmap? {
        let source = frame.pointee
        let format = AVPixelFormat(rawValue: source.format)
        guard source.width > 0, source.height > 0, sws_isSupportedInput(format) > 0 else { return nil }
        let fullRange = source.color_range == AVCOL_RANGE_JPEG || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P,
                                                                    AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
                                                                    AV_PIX_FMT_YUVJ411P].contains(format)
        let wanted = Key(width: source.width, height: source.height, format: source.format,
                         colourspace: Int32(source.colorspace.rawValue), fullRange: fullRange,
                         targetWidth: width, targetHeight: height)
        if key != wanted {
            context = sws_getCachedContext(context, source.width, source.height, format, Int32(width), Int32(height),
                                           Self.targetFormat, Self.flags, nil, nil, nil)
            guard context != nil else {
                key = nil
                return nil
            }
            // The frame's matrix (BT.601, BT.709...; unspecified is BT.601, as ffmpeg's scale
            // filter does) and range; RGB is full range.
            let coefficients = sws_getCoefficients(Int32(source.colorspace.rawValue))
            _ = sws_setColorspaceDetails(context, coefficients, fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                         0, 1 << 16, 1 << 16)
            key = wanted
        }
        // libswscale's SIMD converters (yuv2rgb's SSSE3/AVX2 loops, the packed output of the
        // vertical scaler) store whole blocks of 8 or 16 pixels: a row is written up to its width
        // rounded up to the block, as far as the stride allows, and FFmpeg's own frames give them
        // that room (av_frame_get_buffer: linesize aligned to av_cpu_max_align(), 64 bytes, and
        // padding after the last row). So does this buffer: each row `paddedStride` pixels (a
        // multiple of 64 bytes) and one more block after the last, which libswscale may write and
        // nobody reads. Given rows of exactly the width it wrote 16-28 bytes past the buffer.
        let stride = Self.paddedStride(width)
        let count = stride * height + Self.blockPixels
        // Not filled first: libswscale writes every pixel (an 8 MB fill per 1080p frame would cost
        // a fifth of the conversion), and a short conversion is refused below.
        var frame = frame.pointee
        var rows: Int32 = 0
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            let targetPlanes: [UnsafeMutablePointer<UInt8>?] = [UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                                                nil, nil, nil]
            let targetStrides: [Int32] = [Int32(stride * 4), 0, 0, 0]
            rows = withUnsafePointer(to: &frame.data) { planes in
                withUnsafePointer(to: &frame.linesize) { strides in
                    planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                        strides.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { strides in
                            sws_scale(context, planes, strides, 0, source.height, targetPlanes, targetStrides)
                        }
                    }
                }
            }
            // The padding black (a few pixels a row, written or not by libswscale), so that two
            // conversions of one frame are the same array.
            let base = buffer.baseAddress!
            if stride > width {
                for y in 0..<height { (base + y * stride + width).initialize(repeating: 0, count: stride - width) }
            }
            (base + stride * height).initialize(repeating: 0, count: Self.blockPixels)
            initialized = count  // UInt32s: whatever a short conversion left is no unsafety, and is refused
        }
        return rows == Int32(height) ? Bitmap(width: width, height: height, stride: stride, pixels: pixels) : nil
    }

    /// The widest block libswscale's x86 and NEON converters store at once: 16 pixels, 64 bytes
    /// (also av_cpu_max_align(), the alignment FFmpeg gives its own frames' rows).
    static let blockPixels = 16

    /// `width` rounded up to a whole block: the row stride libswscale is given.
    static func paddedStride(_ width: Int) -> Int {
        (width + blockPixels - 1) / blockPixels * blockPixels
    }
}
