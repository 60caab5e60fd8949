import Colour

/// Photos' one door to decoding: opens a photo's file once, picks the decoder by the file's first
/// bytes (never by its name), and gives the header (for the library scan), or the image at a target
/// size with, when asked, the metadata captions need, read from the same bytes. One per thread:
/// each decode worker owns one, with a decoder for every format and a colour converter.
///
/// Every decoded image is converted to sRGB here, from the colour description its decoder found
/// (SPEC §11), after the decoder resampled it: a 12 MP photo costs a conversion at screen size.
///
/// A new format is one type conforming to `ImageDecoder`, listed in `formats`.
public final class PhotoDecoder {
    /// Every format Vitrine decodes, in the order their magic bytes are tried.
    /// Clips come after the stills: an ftyp box with an image brand is HEIF's or AVIF's.
    static let formats: [any ImageDecoder.Type] = [JPEGDecoder.self, HEIFDecoder.self, AVIFDecoder.self, WebPDecoder.self,
                                                   PNGDecoder.self, ClipDecoder.self]

    /// How much of a file is read first: enough for every format's magic bytes and for most
    /// headers; a decoder reads more when the headers go on past it (EXIF, ICC profiles).
    static let headerPrefix = 64 * 1024
    /// How many first bytes a skipped file's message shows.
    static let shownBytes = 8

    public let options: DecodeOptions
    private let decoders: [any ImageDecoder]
    private let colour: ColourConverter

    public init(options: DecodeOptions = DecodeOptions()) throws {
        self.options = options
        decoders = try Self.formats.map { try $0.init(options: options) }
        colour = try ColourConverter()
    }

    /// What the colour converter did (tests, the benchmark).
    public var colourStatistics: ColourConverter.Statistics { colour.statistics }

    /// The file names a library scan looks at: every format's extensions, any case.
    public static func isCandidateName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return formats.contains { format in format.fileExtensions.contains { lower.hasSuffix("." + $0) } }
    }

    /// The format of a file starting with `start`, if any decoder claims it.
    static func format(of start: ArraySlice<UInt8>) -> (any ImageDecoder.Type)? {
        formats.first { $0.claims(start) }
    }

    /// The photo at `path` as its headers describe it: opened once, only its start read.
    public func info(path: String) throws -> PhotoInfo {
        let file = try PhotoFile(path: path, options: options)
        defer { file.close() }
        let (_, _, header) = try readHeader(file)
        return PhotoInfo(path: path, fileSize: file.size, modified: file.modified, header: header)
    }

    /// The photo at `path`, upright, at exactly `target` (displayed orientation; callers keep the
    /// aspect ratio and the bound with `ImageSize.decodeTarget`), and with `metadata` its caption
    /// blocks from the same bytes. The file is opened once; its header is checked before the rest
    /// is read, so a bomb or a text file costs one small read (a clip's poster reads only what its
    /// first frame needs). With `version` (the scan's), a file that is no longer that version is
    /// refused before a byte is read (`.changed`): a photo written again under its own name is
    /// half-written until its writer is done, and would show half-drawn.
    public func decode(path: String, to target: ImageSize, metadata: Bool = false,
                       version: FileVersion? = nil) throws -> (image: DecodedImage, metadata: ImageMetadata?) {
        let file = try PhotoFile(path: path, options: options)
        defer { file.close() }
        if let version, file.version != version {
            throw PhotoError(path: path, reason: .changed(since: version, now: file.version))
        }
        let (decoder, start, _) = try readHeader(file)
        var (image, blocks) = try decoder.decode(file: file, start: start, path: path, to: target, metadata: metadata)
        convertToSRGB(&image)
        return (image, blocks)
    }

    /// The image's pixels in sRGB, from the colour description its decoder found; one that cannot
    /// be used leaves them as they are, with the reason in `colourWarning`.
    func convertToSRGB(_ image: inout DecodedImage) {
        guard image.colourWarning == nil else { return }
        do {
            try colour.convertToSRGB(&image.bitmap, from: image.colour)
        } catch {
            image.colourWarning = "its colour description cannot be used: \(error)"
        }
    }

    /// The caption blocks of the photo at `path` alone (a caption read without a decode): the file
    /// opened once and read whole, up to photos.max_file_megabytes.
    public static func metadata(path: String, options: DecodeOptions = DecodeOptions()) throws -> ImageMetadata {
        let file = try PhotoFile(path: path, options: options)
        defer { file.close() }
        let bytes = try file.readAll()
        guard !bytes.isEmpty else { throw PhotoError(path: path, reason: .empty) }
        guard let metadata = metadata(in: bytes) else {
            throw PhotoError(path: path, reason: .unknownFormat(firstBytes: Array(bytes.prefix(shownBytes))))
        }
        return metadata
    }

    /// The caption blocks of a whole file in memory, read by the decoder its content calls for;
    /// nil when no decoder claims it.
    public static func metadata(in bytes: [UInt8]) -> ImageMetadata? {
        format(of: bytes[...])?.metadata(in: bytes)
    }

    private func readHeader(_ file: PhotoFile) throws -> (any ImageDecoder, start: [UInt8], ImageHeader) {
        guard file.size > 0 else { throw PhotoError(path: file.path, reason: .empty) }
        let start = try file.readPrefix(Self.headerPrefix)
        guard !start.isEmpty else { throw PhotoError(path: file.path, reason: .empty) }  // it shrank
        guard let decoder = decoders.first(where: { type(of: $0).claims(start[...]) }) else {
            throw PhotoError(path: file.path, reason: .unknownFormat(firstBytes: Array(start.prefix(Self.shownBytes))))
        }
        let header = try decoder.header(start: start, file: file)
        // What the decode would hold, from the header, against the cache's budget: refused here,
        // at the scan and at every decode, before any of it is allocated. The cache never grows
        // for it (it grows only for the output at screen size: `ImageCache.reserve`).
        let needs = header.sourceBytes(fileSize: file.size)
        if let budget = options.memoryBudget, needs > budget {
            throw PhotoError(path: file.path, reason: .tooLargeForMemory(needs: needs, budget: budget))
        }
        return (decoder, start, header)
    }
}
