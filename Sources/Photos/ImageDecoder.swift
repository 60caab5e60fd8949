/// One image format's decoder, behind the one seam every format plugs into (SPEC §11), as
/// Pillow's `Image.open` plugins or libheif's decoder plugins do: `PhotoDecoder` picks the decoder
/// whose `claims` accepts the file's first bytes, so a caller never names a format and a file's
/// name never decides it (a PNG named .jpg is a PNG).
///
/// A decoder owns its library's handles and is not thread-safe: each decode worker has its own.
/// Bad input gives a `PhotoError`, never a crash; sizes from the file are checked against
/// `DecodeOptions.maxMegapixels` from the header, before any pixel buffer exists.
protocol ImageDecoder: AnyObject {
    /// The format's name in messages and `PhotoInfo.format` ("JPEG").
    static var formatName: String { get }
    /// The file names (lower case, without the dot) a library scan looks at for this format. They
    /// only select candidates; the content decides the format.
    static var fileExtensions: [String] { get }
    /// True when a file starting with `start` (its first bytes, up to `PhotoDecoder.headerPrefix`)
    /// is of this format: its magic bytes.
    static func claims(_ start: ArraySlice<UInt8>) -> Bool
    /// The metadata captions read, from the whole file in memory (bounded by its own lengths).
    static func metadata(in bytes: [UInt8]) -> ImageMetadata

    init(options: DecodeOptions) throws

    /// The checked header of `file`, whose first bytes `start` were read already; reads more of
    /// the file only when the headers go on past them.
    func header(start: [UInt8], file: PhotoFile) throws -> ImageHeader
    /// The whole file in memory, upright, at exactly `target` (the displayed orientation): the
    /// decoder may scale while decoding (TurboJPEG's factors), then resamples to the exact size.
    func decode(_ bytes: [UInt8], path: String, to target: ImageSize) throws -> DecodedImage
    /// The file `file`, whose first bytes `start` were read already, upright at exactly `target`,
    /// with its caption blocks when `metadata` asks. A still reads the whole file (bounded by
    /// photos.max_file_megabytes) and decodes it in memory (the default below); a clip reads only
    /// what its poster frame needs.
    func decode(file: PhotoFile, start: [UInt8], path: String, to target: ImageSize,
                metadata: Bool) throws -> (DecodedImage, ImageMetadata?)
}

extension ImageDecoder {
    func decode(file: PhotoFile, start: [UInt8], path: String, to target: ImageSize,
                metadata: Bool) throws -> (DecodedImage, ImageMetadata?) {
        let bytes = try file.readAll()
        let image = try decode(bytes, path: path, to: target)
        return (image, metadata ? Self.metadata(in: bytes) : nil)
    }
}
