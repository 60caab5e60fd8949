import Photos

/// The `png` fuzz target: the bytes as a PNG photo file, read as the library scan reads it (the
/// chunk walk, the eXIf orientation, libspng's IHDR check and the size limits) and as a caption
/// read takes its metadata (eXIf, iTXt XMP, wherever they are). A header of at most 65,536 pixels is
/// decoded too, as the workers would: libspng row by row into the box reduction, then the
/// resampler, at a thumbnail's size (reduced) and at the image's own size.
public enum PNGFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// The header was refused, with the reason a user would read.
        case rejected(String)
        case header(width: Int, height: Int)
        /// A small image whose header passed but whose data did not decode.
        case undecodable(String)
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let array = Array(bytes)
        if let metadata = PhotoDecoder.metadata(in: array) {
            for packet in metadata.xmp { _ = XMPCaption.read(packet: packet) }
            for tiff in metadata.exif { _ = (EXIF.imageDescription(tiff: tiff), EXIF.dateTimeOriginal(tiff: tiff)) }
        }
        // A decoder per input: it holds no library handle between calls.
        let decoder = PNGDecoder(options: DecodeOptions(maxMegapixels: 100))
        do {
            let header = try decoder.readHeader(bytes: array, path: "fuzz.png")
            if header.size.pixelCount <= 65536 {
                do {
                    _ = try decoder.decode(bytes: array, path: "fuzz.png", to: ImageSize(width: 12, height: 8))
                    _ = try decoder.decode(bytes: array, path: "fuzz.png", to: header.size)
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
