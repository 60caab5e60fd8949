import Blitter
import Colour

/// Reads WebP headers and decodes WebPs (lossy, lossless, with alpha, and an animation's first
/// frame) to upright bitmaps of an exact size, through libwebp and its demuxer (SPEC §11).
///
/// libwebp scales while it decodes: the picture is decoded straight at the target size when that
/// is smaller than the image, so a lossy 12 MP WebP is never held at full size (a lossless one is:
/// libwebp's VP8L decoder keeps the whole image, and the header says so). Alpha is composed over
/// black. The EXIF chunk's orientation is applied (SPEC §4); the ICCP chunk is reported as the
/// image's colour description for `PhotoDecoder` to convert.
///
/// A truncated file (the RIFF header gives more bytes than the file has) is refused from its first
/// bytes rather than shown in part: unlike a JPEG's, a WebP's truncation is known before any
/// decoding, it costs the library scan nothing, and a partial lossless or animated picture would
/// be mostly black.
public final class WebPDecoder {
    public let maxMegapixels: Double

    public convenience init(options: DecodeOptions) {
        self.init(maxMegapixels: options.maxMegapixels)
    }

    public init(maxMegapixels: Double = 100) {
        self.maxMegapixels = maxMegapixels
    }

    /// libwebp's lossy decoder keeps a few rows of macroblocks (with threads, twice), and its
    /// rescaler a few rows of output: about this many bytes per column of the image.
    static let rowBytesPerColumn = 128
    /// How many chunk headers the header read reads one by one after the image chunk's start.
    static let maxChunkHeaderReads = 32

    // MARK: Header

    /// The checked header of a whole WebP file held in memory (or of its first bytes, when they
    /// hold the headers and the EXIF chunk).
    public func readHeader(bytes: [UInt8], path: String) throws -> ImageHeader {
        try header(of: bytes, layout: WebPLayout(parsing: bytes), fileSize: bytes.count, path: path)
    }

    /// The checked header of `file`, whose first bytes `start` were read already: reads further
    /// only as far as the image chunk's header and, when the VP8X flags say there is one, the EXIF
    /// chunk (at most its first `WebPLayout.exifReadBound` bytes), which writers put after the
    /// image data. The file's size bounds it (photos.max_file_megabytes).
    func readHeader(start: [UInt8], file: PhotoFile) throws -> ImageHeader {
        var bytes = start
        var chunkHeadersRead = 0
        while true {
            let layout = WebPLayout(parsing: bytes)
            try checkTruncation(layout, fileSize: file.size, path: file.path)
            // Past the image chunk's start, only chunk headers and the EXIF payload are read, each
            // where it is; the bytes between (the image data, megabytes) stay zeros that nothing
            // reads: a 12 MP WebP's scan reads a few kB, not the file. At most
            // `maxChunkHeaderReads` steps (each walk is over the whole buffer); past that, the
            // prefix is read as it comes.
            if let wanted = layout.bytesWanted(have: bytes.count), bytes.count < file.size,
               let image = layout.imageChunkOffset, bytes.count >= image + 8 + WebPLayout.imageHeaderBytes,
               chunkHeadersRead < Self.maxChunkHeaderReads {
                chunkHeadersRead += 1
                let (offset, count) = if let exif = layout.exifChunk, wanted > exif.offset + 8 {
                    (exif.offset + 8, wanted - (exif.offset + 8))
                } else {
                    (layout.walkEnd ?? bytes.count, 8)
                }
                if offset >= bytes.count, offset < file.size {
                    let read = try file.read(count: count, at: offset)
                    if !read.isEmpty {
                        bytes += [UInt8](repeating: 0, count: offset - bytes.count) + read
                        continue
                    }
                }
            }
            if let wanted = layout.bytesWanted(have: bytes.count), bytes.count < file.size {
                // At least twice as much each time: a file of many small chunks is read in a few steps.
                let more = try file.readPrefix(min(file.size, max(wanted, bytes.count * 2)))
                if more.count > bytes.count {  // else the file shrank under us: judge what we have
                    bytes = more
                    continue
                }
            }
            return try header(of: bytes, layout: layout, fileSize: file.size, path: file.path)
        }
    }

    /// A file shorter than its RIFF header says is refused before anything else is read.
    private func checkTruncation(_ layout: WebPLayout, fileSize: Int, path: String) throws {
        guard layout.declaredFileSize <= fileSize else {
            throw PhotoError(path: path, reason: .corrupt(format: Self.formatName,
                "truncated: the file has \(fileSize) bytes, its RIFF header says \(layout.declaredFileSize)"))
        }
    }

    /// `bytes` is the start of a file of `fileSize` bytes (or all of it).
    private func header(of bytes: [UInt8], layout: WebPLayout, fileSize: Int, path: String) throws -> ImageHeader {
        func fail(_ reason: PhotoError.Reason) -> PhotoError { PhotoError(path: path, reason: reason) }
        guard fileSize > 0 else { throw fail(.empty) }
        guard WebPLayout.isWebP(bytes[...]) else { throw fail(.unknownFormat(firstBytes: Array(bytes.prefix(PhotoDecoder.shownBytes)))) }
        try checkTruncation(layout, fileSize: fileSize, path: path)
        // The canvas first, from VP8X, so that a bomb costs nothing more.
        if let canvas = layout.extended?.canvas { try checkLimit(canvas, path: path) }

        let features: WebPBitstream.Features
        switch bytes.withUnsafeBufferPointer({ WebPBitstream.features(of: $0) }) {
        case let .success(found): features = found
        case let .failure(status): throw fail(status.reason(inHeader: true))
        }
        guard features.size.width > 0, features.size.height > 0 else {
            throw fail(.zeroSize(width: features.size.width, height: features.size.height))
        }
        try checkLimit(features.size, path: path)
        let orientation = layout.exifPayload(in: bytes)
            .flatMap { EXIF.orientationValue(tiff: Self.tiff(inExifChunk: $0)) }
            .map(Orientation.init(exifValue:)) ?? .normal
        return ImageHeader(format: Self.formatName, storedSize: features.size, orientation: orientation,
                           workingBytes: Self.workingBytes(features))
    }

    /// What libwebp holds besides its output, whatever the target size: a lossless image whole
    /// (VP8L decodes every pixel, 4 bytes, before it scales), a lossy one's alpha plane whole (and
    /// the lossless alpha bitstream's buffer: 2 bytes a pixel), an animation's frame as either;
    /// and a few rows.
    static func workingBytes(_ features: WebPBitstream.Features) -> Int {
        let pixels = features.size.pixelCount
        let rows = features.size.width * rowBytesPerColumn
        switch features.kind {
        case .lossless, .mixed: return 4 * pixels + rows
        case .lossy: return (features.hasAlpha ? 2 * pixels : 0) + rows
        }
    }

    /// The TIFF structure of an EXIF chunk: some writers put JPEG's "Exif\0\0" before it.
    static func tiff(inExifChunk payload: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        EXIF.tiff(inApp1Payload: payload) ?? payload
    }

    private func checkLimit(_ size: ImageSize, path: String) throws {
        guard Double(size.width) * Double(size.height) <= maxMegapixels * 1e6 else {
            throw PhotoError(path: path, reason: .tooLarge(width: size.width, height: size.height, maxMegapixels: maxMegapixels))
        }
    }

    // MARK: Decoding

    /// A whole WebP file in memory, upright, at exactly `requested` (displayed orientation).
    public func decode(bytes: [UInt8], path: String, to requested: ImageSize) throws -> DecodedImage {
        func fail(_ reason: PhotoError.Reason) -> PhotoError { PhotoError(path: path, reason: reason) }
        let header = try readHeader(bytes: bytes, path: path)
        let target = ImageSize(width: max(1, requested.width), height: max(1, requested.height))
        try checkLimit(target, path: path)
        let canvas = header.storedSize
        let storedTarget = header.orientation.storedSize(target)
        // libwebp only reduces; a larger target is the resampler's.
        let decodedSize = ImageSize(width: min(storedTarget.width, canvas.width), height: min(storedTarget.height, canvas.height))

        let (decoded, colour) = try WebPDemuxedFile.with(bytes) { file throws -> (Bitmap, Result<ColourDescription, ICCTooLarge>?) in
            guard let file else {
                throw fail(.corrupt(format: Self.formatName, "WebPDemux: the RIFF chunks are invalid"))
            }
            guard file.canvas == canvas else {
                throw fail(.corrupt(format: Self.formatName, "the demuxer's canvas \(file.canvas) is not the header's \(canvas)"))
            }
            guard let frame = file.firstFrame else { throw fail(.noImageData) }
            guard frame.x >= 0, frame.y >= 0, frame.size.width > 0, frame.size.height > 0,
                  frame.x + frame.size.width <= canvas.width, frame.y + frame.size.height <= canvas.height else {
                throw fail(.corrupt(format: Self.formatName, "first frame \(frame.size) at \(frame.x),\(frame.y) is outside the \(canvas) canvas"))
            }
            switch WebPBitstream.features(of: frame.bitstream) {
            case let .success(features) where features.size == frame.size: break
            case let .success(features):
                throw fail(.corrupt(format: Self.formatName, "the first frame's bitstream is \(features.size), its chunk says \(frame.size)"))
            case let .failure(status): throw fail(status.reason(inHeader: false))
            }
            let bitmap = try Self.place(frame, canvas: canvas, at: decodedSize, path: path)
            // The ICCP chunk's declared size is checked before its bytes are copied.
            let colour = file.chunks("ICCP").first.map { range -> Result<ColourDescription, ICCTooLarge> in
                range.count <= MetadataBounds.iccBytes ? .success(.icc(Array(bytes[range]))) : .failure(ICCTooLarge(bytes: range.count))
            }
            return (bitmap, colour)
        }
        var bitmap = decoded
        if decodedSize != storedTarget {
            bitmap = bitmap.resized(width: storedTarget.width, height: storedTarget.height)
        }
        let scale = ScalingFactor(num: decodedSize.width, denom: canvas.width)
        var image = DecodedImage(bitmap: header.orientation.apply(to: bitmap), header: header, scale: scale,
                                 decodedSize: decodedSize, warning: nil)
        switch colour {
        case let .success(description)?: image.colour = description
        case let .failure(large)?:
            image.colourWarning = "its ICCP chunk (\(large.bytes) bytes) is over the \(MetadataBounds.shown(MetadataBounds.iccBytes)) bound for ICC profiles"
        case nil: break
        }
        return image
    }

    /// An ICCP chunk over `MetadataBounds.iccBytes`: not copied, the photo shown unconverted.
    struct ICCTooLarge: Error {
        let bytes: Int
    }

    /// `frame` decoded onto a black canvas of `size` (the image's canvas scaled to it): a frame
    /// smaller than the canvas lands at its offset, scaled with it, so a still image fills it.
    private static func place(_ frame: WebPDemuxedFile.Frame, canvas: ImageSize, at size: ImageSize, path: String) throws -> Bitmap {
        // The frame's edges on the scaled canvas; canvases are at most 16384 wide, so no overflow.
        let left = frame.x * size.width / canvas.width, right = (frame.x + frame.size.width) * size.width / canvas.width
        let top = frame.y * size.height / canvas.height, bottom = (frame.y + frame.size.height) * size.height / canvas.height
        let region = ImageSize(width: right - left, height: bottom - top)
        var pixels = [UInt32](repeating: 0, count: size.pixelCount)
        if region.width > 0, region.height > 0 {  // else a frame too small to show at this size
            let failure = pixels.withUnsafeMutableBytes { out in
                WebPBitstream.decode(frame.bitstream, into: out, offset: (top * size.width + left) * 4, stride: size.width * 4,
                                     size: region, scaled: region != frame.size)
            }
            if let failure { throw PhotoError(path: path, reason: failure.reason(inHeader: false)) }
        }
        // Premultiplied BGRA bytes are 0xAARRGGBB on little-endian: the colour over black, and the
        // alpha byte cleared (XRGB8888).
        for i in pixels.indices { pixels[i] = UInt32(littleEndian: pixels[i]) & 0x00FF_FFFF }
        return Bitmap(width: size.width, height: size.height, stride: size.width, pixels: pixels)
    }
}

extension WebPDecoder: ImageDecoder {
    static var formatName: String { "WebP" }
    static var fileExtensions: [String] { ["webp"] }

    /// "RIFF" ???? "WEBP".
    static func claims(_ start: ArraySlice<UInt8>) -> Bool {
        WebPLayout.isWebP(start)
    }

    /// The EXIF chunks (with or without "Exif\0\0" before the TIFF header) and XMP chunks, as the
    /// demuxer finds them; nothing from a file it refuses.
    static func metadata(in bytes: [UInt8]) -> ImageMetadata {
        WebPDemuxedFile.with(bytes) { file in
            guard let file else { return .none }
            var metadata = ImageMetadata()
            // Each chunk within its bound is a slice of the file's bytes (no copy); one over it is said.
            for range in file.chunks("EXIF") {
                if range.count <= MetadataBounds.exifBytes + EXIF.app1Header.count {
                    metadata.exif.append(tiff(inExifChunk: bytes[range]))
                } else {
                    metadata.unread.append(MetadataBounds.tooLarge("its EXIF chunk", declared: range.count,
                                                                   bound: MetadataBounds.exifBytes, kind: "EXIF"))
                }
            }
            for range in file.chunks("XMP ") {
                if range.count <= MetadataBounds.xmpBytes {
                    metadata.xmp.append(bytes[range])
                } else {
                    metadata.unread.append(MetadataBounds.tooLarge("its XMP chunk", declared: range.count,
                                                                   bound: MetadataBounds.xmpBytes, kind: "XMP"))
                }
            }
            return metadata
        }
    }

    func header(start: [UInt8], file: PhotoFile) throws -> ImageHeader {
        try readHeader(start: start, file: file)
    }

    func decode(_ bytes: [UInt8], path: String, to target: ImageSize) throws -> DecodedImage {
        try decode(bytes: bytes, path: path, to: target)
    }
}
