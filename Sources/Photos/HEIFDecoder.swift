/// HEIF and HEIC photos (what iPhones write: HEVC, single images and 48-tile grids) through
/// libheif and libde265. Told from AVIF, which is the same container, by the ftyp box's brands.
public final class HEIFDecoder: HEIFFamilyDecoder, ImageDecoder {
    static let formatName = "HEIF"
    static let fileExtensions = ["heic", "heif", "hif"]

    public init(options: DecodeOptions) {
        super.init(format: Self.formatName, options: options)
    }

    static func claims(_ start: ArraySlice<UInt8>) -> Bool { HEIFFileType.family(of: start) == .heif }

    static func metadata(in bytes: [UInt8]) -> ImageMetadata { metadata(format: formatName, in: bytes) }
}
