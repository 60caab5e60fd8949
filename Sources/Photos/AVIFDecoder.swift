/// AVIF photos (AV1: 8, 10 and 12 bits, alpha, grids) through libheif and dav1d. Told from
/// HEIF, which is the same container, by the ftyp box's brands (avif, avis).
/// Owns nothing between calls: each call parses the file into a context of its own.
public final class AVIFDecoder: ImageDecoder {
    static let formatName = "AVIF"
    static let fileExtensions = ["avif", "avifs"]
    private let container: HEIFContainerDecoder

    public init(options: DecodeOptions) {
        container = HEIFContainerDecoder(format: Self.formatName, options: options)
    }

    static func claims(_ start: ArraySlice<UInt8>) -> Bool { HEIFFileType.family(of: start) == .avif }

    static func metadata(in bytes: [UInt8]) -> ImageMetadata {
        HEIFContainerDecoder(format: formatName, options: DecodeOptions()).metadata(in: bytes)
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
