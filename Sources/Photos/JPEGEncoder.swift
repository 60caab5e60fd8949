import Blitter
import CTurboJPEG

/// Encodes bitmaps as baseline JPEG with TurboJPEG. Owns one compressor, which is not thread-safe:
/// use one encoder per thread.
public final class JPEGEncoder {
    public enum Subsampling: Sendable {
        case s444, s420

        var turboJPEG: Int32 {
            switch self {
            case .s444: return Int32(TJSAMP_444.rawValue)
            case .s420: return Int32(TJSAMP_420.rawValue)
            }
        }
    }

    private let handle: tjhandle

    public init() throws {
        guard let handle = tjInitCompress() else {
            throw JPEGDecoder.SetupError(call: "tjInitCompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// `bitmap` as a JPEG file's bytes.
    public func encode(_ bitmap: Bitmap, quality: Int = 90, subsampling: Subsampling = .s420) throws -> [UInt8] {
        // JPEG's sides are 16 bits; tjBufSize answers (unsigned long)-1 for what it refuses.
        guard !bitmap.isEmpty, bitmap.width <= 65535, bitmap.height <= 65535, bitmap.stride >= bitmap.width,
              bitmap.stride <= Int(Int32.max) / 4, bitmap.pixels.count >= bitmap.stride * bitmap.height,
              let capacity = Int(exactly: tjBufSize(Int32(bitmap.width), Int32(bitmap.height), subsampling.turboJPEG)),
              capacity > 0 else {
            throw JPEGDecoder.SetupError(call: "tjCompress2", message: "cannot encode a \(bitmap.width)x\(bitmap.height) bitmap")
        }
        var output = [UInt8](repeating: 0, count: capacity)
        var length = UInt(capacity)
        // XRGB8888 words are the bytes B, G, R, X in memory on a little-endian machine.
        let status = bitmap.pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBufferPointer { out in
                var outPointer: UnsafeMutablePointer<UInt8>? = out.baseAddress
                return tjCompress2(handle, source.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                   Int32(bitmap.width), Int32(bitmap.stride * 4), Int32(bitmap.height),
                                   Int32(TJPF_BGRX.rawValue), &outPointer, &length, subsampling.turboJPEG,
                                   Int32(max(1, min(100, quality))), TJFLAG_NOREALLOC)
            }
        }
        guard status == 0 else {
            throw JPEGDecoder.SetupError(call: "tjCompress2", message: String(cString: tjGetErrorStr2(handle)))
        }
        output.removeSubrange(Int(length)...)
        return output
    }
}
