import Foundation
import Photos

/// The `heif` fuzz target: the bytes as a HEIF or AVIF file, read as the library scan and the
/// decode workers read one: libheif's box parser through Vitrine's reader, the header's bounds
/// (megapixels, the grid's tile count from Vitrine's own walk of the meta box), the metadata items
/// and the caption readers on them; an image of at most 4096 pixels is decoded too (libde265 or
/// dav1d, the conversion to XRGB with alpha over black, the file's thumbnail, the resampler).
public enum HEIFFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// The header was refused, with the reason a user would read.
        case rejected(String)
        case header(width: Int, height: Int)
        /// A small image whose header passed but whose data did not decode.
        case undecodable(String)
    }

    private static let decoder = HEIFDecoder(options: DecodeOptions(maxMegapixels: 100))

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let array = Array(bytes)
        // The metadata items as the decode workers take them from a photo's bytes (the format
        // chosen by the ftyp box's brands), and the caption sources read from them.
        if let metadata = PhotoDecoder.metadata(in: array) {
            for packet in metadata.xmp { _ = XMPCaption.read(packet: packet) }
            for tiff in metadata.exif { _ = (EXIF.imageDescription(tiff: tiff), EXIF.dateTimeOriginal(tiff: tiff)) }
        }
        do {
            let header = try decoder.readHeader(bytes: array, path: "fuzz.heic")
            if header.size.pixelCount <= 4096 {
                do {
                    _ = try decoder.decode(array, path: "fuzz.heic", to: ImageSize(width: 24, height: 16))
                } catch {
                    return .undecodable("\(error)")
                }
            }
            return .header(width: header.size.width, height: header.size.height)
        } catch {
            return .rejected("\(error)")
        }
    }
}
