import Foundation
import Photos

/// The `webp` fuzz target: the bytes as a whole WebP file, read as the library scan and the decode
/// workers read it: the RIFF walk, libwebp's WebPGetFeatures and the size limits, the EXIF
/// orientation; the metadata chunks through the demuxer and the caption readers; then, for an image
/// of at most 512x512 pixels, the first frame decoded by libwebp scaled to a thumbnail (placed on
/// the canvas, resampled) and, up to 4096 pixels, at full size.
public enum WebPFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// The header was refused, with the reason a user would read.
        case rejected(String)
        case decoded(width: Int, height: Int)
        /// A header that passed but whose data did not decode, with the reason.
        case undecodable(String)
        /// Too large to decode in a fuzzer's time: only the header was read.
        case header(width: Int, height: Int)
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let array = Array(bytes)
        if let metadata = PhotoDecoder.metadata(in: array) {
            for packet in metadata.xmp { _ = XMPCaption.read(packet: packet) }
            for tiff in metadata.exif { _ = (EXIF.imageDescription(tiff: tiff), EXIF.dateTimeOriginal(tiff: tiff)) }
        }
        let decoder = WebPDecoder(maxMegapixels: 100)
        let header: ImageHeader
        do {
            header = try decoder.readHeader(bytes: array, path: "fuzz.webp")
        } catch {
            return .rejected("\(error)")
        }
        let size = header.size
        guard size.pixelCount <= 512 * 512 else { return .header(width: size.width, height: size.height) }
        do {
            _ = try decoder.decode(bytes: array, path: "fuzz.webp", to: size.fitting(in: ImageSize(width: 24, height: 16)))
            if size.pixelCount <= 4096 {
                _ = try decoder.decode(bytes: array, path: "fuzz.webp", to: size)
            }
        } catch {
            return .undecodable("\(error)")
        }
        return .decoded(width: size.width, height: size.height)
    }
}
