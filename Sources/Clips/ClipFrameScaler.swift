import Blitter
import CFFmpeg

/// A decoded frame converted by libswscale straight into an XRGB8888 `Bitmap` (AV_PIX_FMT_BGR0
/// on little endian: B, G, R, X in memory is 0x00RRGGBB), resized on the way; full-range video
/// (yuvj*, or color_range JPEG) and 10-bit formats included. The SwsContext is kept while the
/// frame's format and both sizes stay the same. Owns it.
final class ClipFrameScaler {
    /// The scaler's filter: bicubic, ffmpeg's own default for `-vf scale`, so that frames compare
    /// with ffmpeg's; at the same size it is only a colour conversion.
    static let flags = Int32(SWS_BICUBIC)

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
                                           AV_PIX_FMT_BGR0, Self.flags, nil, nil, nil)
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
        var bitmap = Bitmap(width: width, height: height)
        var frame = frame.pointee
        let rows = bitmap.pixels.withUnsafeMutableBytes { pixels -> Int32 in
            var targetPlanes: [UnsafeMutablePointer<UInt8>?] = [pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var targetStrides: [Int32] = [Int32(bitmap.stride * 4), 0, 0, 0]
            return withUnsafePointer(to: &frame.data) { planes in
                withUnsafePointer(to: &frame.linesize) { strides in
                    planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                        strides.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { strides in
                            sws_scale(context, planes, strides, 0, source.height, &targetPlanes, &targetStrides)
                        }
                    }
                }
            }
        }
        return rows > 0 ? bitmap : nil
    }
}
