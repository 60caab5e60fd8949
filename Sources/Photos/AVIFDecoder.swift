/// AVIF photos (AV1: 8, 10 and 12 bits, alpha, grids) through libheif and dav1d. Told from
/// HEIF, which is the same container, by the ftyp box's brands (avif, avis).
public final class AVIFDecoder: HEIFFamilyDecoder, ImageDecoder {
    static let formatName = "AVIF"
    static let fileExtensions = ["avif", "avifs"]

    public init(options: DecodeOptions) {
        super.init(format: Self.formatName, options: options)
    }

    static func claims(_ start: ArraySlice<UInt8>) -> Bool { HEIFFileType.family(of: start) == .avif }

    static func metadata(in bytes: [UInt8]) -> ImageMetadata { metadata(format: formatName, in: bytes) }
}
