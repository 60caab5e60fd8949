import Blitter
import CTurboJPEG

/// A TurboJPEG compressor and decompressor for the thumbnail files of `ThumbnailDiskCache`. Not
/// thread-safe (TurboJPEG handles are not): the disk cache lends one to a thread at a time.
final class ThumbnailCodec {
    private let encoder: JPEGEncoder
    /// Replaced after a header read that failed (`JPEGDecoder.renewedDecompressor`).
    private var decompressor: tjhandle

    init() throws {
        encoder = try JPEGEncoder()
        guard let decompressor = tjInitDecompress() else {
            throw JPEGDecoder.SetupError(call: "tjInitDecompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.decompressor = decompressor
    }

    deinit {
        tjDestroy(decompressor)
    }

    /// `bitmap` as a JPEG (4:4:4, quality 95: a few tens of kB for a grid cell; a thumbnail is shown
    /// at exactly this size, so colour is not subsampled), with `comment` in a COM segment right
    /// after SOI, where `decode` checks it.
    func encode(_ bitmap: Bitmap, comment: [UInt8]) throws -> [UInt8] {
        let jpeg = try encoder.encode(bitmap, quality: 95, subsampling: .s444)
        let segmentLength = comment.count + 2
        guard jpeg.count > 2, segmentLength <= 0xFFFF else {
            throw JPEGDecoder.SetupError(call: "tjCompress2", message: "unexpected output of \(jpeg.count) bytes")
        }
        return Array(jpeg.prefix(2)) + [0xFF, 0xFE, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)]
            + comment + jpeg.dropFirst(2)
    }

    /// The bitmap in `bytes` if it starts with the COM segment `comment` and is a complete JPEG of
    /// exactly `size`; nil for anything else (a truncated, corrupt or foreign file).
    func decode(_ bytes: [UInt8], size: ImageSize, comment: [UInt8]) -> Bitmap? {
        let segmentLength = comment.count + 2
        let header: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFE, UInt8(segmentLength >> 8 & 0xFF), UInt8(segmentLength & 0xFF)]
        guard !size.isEmpty, bytes.count > header.count + comment.count,
              bytes.starts(with: header), bytes[header.count..<header.count + comment.count].elementsEqual(comment)
        else { return nil }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorSpace: Int32 = 0
        guard tjDecompressHeader3(decompressor, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorSpace) == 0 else {
            if tjGetErrorCode(decompressor) != Int32(TJERR_WARNING.rawValue) {
                decompressor = JPEGDecoder.renewedDecompressor(decompressor)
            }
            return nil
        }
        guard Int(width) == size.width, Int(height) == size.height else { return nil }
        // tjDecompress2 writes pitch x height bytes: the pitch is the width's 4 bytes a pixel.
        var pixels = [UInt32](repeating: 0, count: size.pixelCount)
        let status = pixels.withUnsafeMutableBytes { out in
            tjDecompress2(decompressor, bytes, UInt(bytes.count), out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                          width, width * 4, height, Int32(TJPF_BGRX.rawValue), 0)
        }
        // Any warning (a truncated file decodes with grey at the bottom) means the file is bad.
        guard status == 0 else { return nil }
        JPEGDecoder.finishPixels(&pixels, cmyk: false)
        return Bitmap(width: size.width, height: size.height, stride: size.width, pixels: pixels)
    }
}
