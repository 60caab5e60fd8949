/// What `HEIFDecoder` and `AVIFDecoder` share, being one container (ISO/IEC 23008-12) with two
/// codecs: everything but their names, extensions and brands. Each call parses the file into a
/// libheif context of its own (`HEIFContainerDecoder`), so a decoder owns nothing between calls.
public class HEIFFamilyDecoder {
    let container: HEIFContainerDecoder

    init(format: String, options: DecodeOptions) {
        container = HEIFContainerDecoder(format: format, options: options)
    }

    static func metadata(format: String, in bytes: [UInt8]) -> ImageMetadata {
        HEIFContainerDecoder(format: format, options: DecodeOptions()).metadata(in: bytes)
    }

    func header(start: [UInt8], file: PhotoFile) throws -> ImageHeader {
        try container.header(input: HEIFInput(file: file, start: start), path: file.path) { HEIFInput(file: file, start: start) }
    }

    /// The checked header of a whole file in memory.
    public func readHeader(bytes: [UInt8], path: String) throws -> ImageHeader {
        try container.header(input: HEIFInput(bytes: bytes), path: path)
    }

    public func decode(_ bytes: [UInt8], path: String, to target: ImageSize) throws -> DecodedImage {
        try container.decode(bytes, path: path, to: target)
    }
}
