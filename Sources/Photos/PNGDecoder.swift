import Blitter
import CSpng
import Colour

/// Reads PNG headers and decodes PNGs (every bit depth, palette, grey, Adam7, 16-bit, tRNS) to
/// upright bitmaps of an exact size through libspng (`SpngReader`). Alpha is composed over black.
/// gAMA is not applied (as browsers and Pillow do not by default; an iCCP profile, inflated by
/// Vitrine within `MetadataBounds.iccBytes`, is reported for `PhotoDecoder` to convert). An APNG shows its default image (IDAT); libspng skips its frames.
///
/// The size in IHDR is checked against photos.max_megapixels by Vitrine's own chunk walk before
/// libspng sees the file, and libspng is then held to that size. A non-interlaced image is decoded
/// row by row into a box reduction (`PNGRowReducer`), so it is never held at full size when the
/// target is at most half of it; an interlaced one is decoded whole first.
///
/// Orientation: the EXIF Orientation of an eXIf chunk before the image data (PNG's third edition
/// places it there), or else of one among the chunks after it (ImageMagick writes it just before
/// IEND, and Pillow reads it there), found in the file's last 64 KB without reading the image
/// data (`PNGLayout.trailingExifOrientation`). XMP's tiff:Orientation is not read (SPEC §4 names eXIf).
public final class PNGDecoder {
    public let options: DecodeOptions

    public init(options: DecodeOptions = DecodeOptions()) {
        self.options = options
    }

    /// The checked header of a whole PNG file held in memory.
    public func readHeader(bytes: [UInt8], path: String) throws -> ImageHeader {
        try header(of: bytes, layout: PNGLayout(parsing: bytes[...]), tail: bytes[...], fileSize: bytes.count, path: path)
    }

    /// The checked header of a PNG whose first `bytes` (or all of it) are given, of a file of
    /// `fileSize` bytes; `tail` is the file's end (its last `PNGLayout.tailBytes`), where an eXIf
    /// after the image data is looked for.
    func header(of bytes: [UInt8], layout: PNGLayout, tail: @autoclosure () throws -> ArraySlice<UInt8>,
                fileSize: Int, path: String) throws -> ImageHeader {
        func fail(_ reason: PhotoError.Reason) -> PhotoError { PhotoError(path: path, reason: reason) }
        guard fileSize > 0, !bytes.isEmpty else { throw fail(.empty) }
        if layout.stop == .notPNG { throw fail(.unknownFormat(firstBytes: Array(bytes.prefix(PhotoDecoder.shownBytes)))) }
        guard let ihdr = layout.header else {
            if layout.badHeaderLength { throw fail(.corrupt(format: Self.formatName, "IHDR is not 13 bytes long")) }
            if case .endOfData = layout.stop { throw fail(.truncatedHeader) }
            if case let .badChunkLength(offset) = layout.stop {
                throw fail(.corrupt(format: Self.formatName, "invalid chunk length at byte \(offset)"))
            }
            throw fail(.corrupt(format: Self.formatName, "no IHDR chunk first"))
        }
        // IHDR's own numbers first: these are the cases that must cost nothing.
        guard ihdr.width > 0, ihdr.height > 0 else { throw fail(.zeroSize(width: ihdr.width, height: ihdr.height)) }
        try checkLimit(width: ihdr.width, height: ihdr.height, path: path)
        // libspng's validation of the signature and IHDR (its CRC, bit depth for the colour type...).
        do {
            _ = try SpngReader.reading(bytes[...], limit: (ihdr.width, ihdr.height)) { try $0.header() }
        } catch let failure as SpngReader.Failure {
            throw fail(failure.isEndOfData ? .truncatedHeader : .corrupt(format: Self.formatName, failure.message))
        }
        switch layout.stop {
        case .imageData:
            break
        case .endOfImage:
            throw fail(.noImageData)
        case .endOfData:
            throw fail(.truncatedHeader)
        case let .badChunkLength(offset):
            throw fail(.corrupt(format: Self.formatName, "invalid chunk length at byte \(offset)"))
        case .notPNG:
            throw fail(.unknownFormat(firstBytes: Array(bytes.prefix(PhotoDecoder.shownBytes))))
        }
        let exifOrientation = try layout.exifOrientation ?? PNGLayout.trailingExifOrientation(in: tail())
        return ImageHeader(format: Self.formatName, storedSize: ImageSize(width: ihdr.width, height: ihdr.height),
                           orientation: Orientation(exifValue: exifOrientation ?? 1),
                           workingBytes: SpngReader.workingBytes(width: ihdr.width, height: ihdr.height, interlaced: ihdr.interlaced))
    }

    private func checkLimit(width: Int, height: Int, path: String) throws {
        guard Double(width) * Double(height) <= options.maxMegapixels * 1e6 else {
            throw PhotoError(path: path, reason: .tooLarge(width: width, height: height, maxMegapixels: options.maxMegapixels))
        }
    }

    /// A whole PNG file in memory, upright, resampled to exactly `requested`.
    public func decode(bytes: [UInt8], path: String, to requested: ImageSize) throws -> DecodedImage {
        let layout = PNGLayout(parsing: bytes[...])
        let header = try header(of: bytes, layout: layout, tail: bytes[...], fileSize: bytes.count, path: path)
        guard let ihdr = layout.header else { throw PhotoError(path: path, reason: .truncatedHeader) }  // checked above
        let target = ImageSize(width: max(1, requested.width), height: max(1, requested.height))
        // Whatever a caller asks, no buffer is larger than photos.max_megapixels allows a photo to be.
        try checkLimit(width: target.width, height: target.height, path: path)
        let storedTarget = header.orientation.storedSize(target)
        let factor = PNGRowReducer.factor(reducing: header.storedSize, toCover: storedTarget)

        var reducer = PNGRowReducer(width: ihdr.width, height: ihdr.height, factor: factor)
        let truncated: Bool
        do {
            truncated = try SpngReader.reading(bytes[...], limit: (ihdr.width, ihdr.height)) { reader in
                try reader.decodeRows(width: ihdr.width, height: ihdr.height, interlaced: ihdr.interlaced) { reducer.add($0) }
                return reader.truncated
            }
        } catch let failure as SpngReader.Failure {
            let message = failure.isEndOfData ? "truncated: the file ends inside the image data" : failure.message
            throw PhotoError(path: path, reason: .corrupt(format: Self.formatName, message))
        }
        var decoded = reducer.bitmap
        let decodedSize = reducer.outputSize
        if decodedSize != storedTarget {
            decoded = decoded.resized(width: storedTarget.width, height: storedTarget.height)
        }
        let warning = truncated ? "truncated: the file ends after its last row, before IEND (the end of its image data unchecked)" : nil
        var image = DecodedImage(bitmap: header.orientation.apply(to: decoded), header: header,
                                 scale: ScalingFactor(num: 1, denom: factor), decodedSize: decodedSize, warning: warning)
        // The profile of an iCCP chunk, inflated by Vitrine within its bound; one that cannot be
        // used is a warning and the photo shows unconverted.
        switch layout.iccp.map(PNGLayout.iccProfile(inICCP:)) {
        case let .success(profile)?: image.colour = .icc(profile)
        case let .failure(problem)?: image.colourWarning = problem.description
        case nil: break
        }
        return image
    }
}

extension PNGDecoder: ImageDecoder {
    static var formatName: String { "PNG" }
    static var fileExtensions: [String] { ["png"] }

    /// The 8-byte PNG signature.
    static func claims(_ start: ArraySlice<UInt8>) -> Bool {
        start.starts(with: PNGLayout.signature)
    }

    /// eXIf chunks and uncompressed iTXt XMP packets, wherever they are in the file (they may follow
    /// the image data), at most `PNGLayout.maxMetadataChunks`.
    static func metadata(in bytes: [UInt8]) -> ImageMetadata {
        let layout = PNGLayout(parsing: bytes[...], readingMetadata: true)
        var metadata = ImageMetadata(exif: layout.exif, xmp: layout.xmp)
        metadata.skippedSegments = layout.skippedMetadataChunks
        metadata.unread = layout.unreadMetadata
        return metadata
    }

    func header(start: [UInt8], file: PhotoFile) throws -> ImageHeader {
        // The chunks before IDAT may go on past what was read (a large iCCP or iTXt): read on.
        let bytes = try file.readPrefix(from: start) { bytes in
            if case let .endOfData(needed) = PNGLayout(parsing: bytes[...]).stop { return needed }
            return nil
        }
        let tail = { () throws -> ArraySlice<UInt8> in
            if bytes.count >= file.size { return bytes.suffix(PNGLayout.tailBytes) }
            let count = min(PNGLayout.tailBytes, file.size)
            return try file.read(count: count, at: file.size - count)[...]
        }
        return try header(of: bytes, layout: PNGLayout(parsing: bytes[...]), tail: try tail(), fileSize: file.size, path: file.path)
    }

    func decode(_ bytes: [UInt8], path: String, to target: ImageSize) throws -> DecodedImage {
        try decode(bytes: bytes, path: path, to: target)
    }
}
