import Blitter
import Clips
import Linux

/// A clip's poster (SPEC §12: its first frame that decodes) through the decoder seam, so that a
/// clip is laid out, cached and shown like any photo: FFmpeg reads it through Clips' `ClipReader`.
/// The header comes from the container alone (nothing decoded: a library of many clips scans
/// fast); the poster reads only what its first frame needs, never the whole file, and decodes in
/// software (the hardware decoder is the player's). The display matrix becomes the orientation,
/// so `PhotoInfo.size` is the displayed size.
final class ClipDecoder {
    /// Frames the software decoders hold at full size while they decode (H.264's and HEVC's
    /// reference pictures and the one being decoded, at a level's usual count), at 4:2:0 with up
    /// to 16 bits a sample: the header's working memory.
    static let decoderFrames = 6
    static let bytesPerPixel = 3

    let options: DecodeOptions

    init(options: DecodeOptions) {
        self.options = options
    }

    private var limits: ClipLimits {
        ClipLimits(maxMegapixels: options.maxMegapixels, maxFileBytes: Int.max)
    }

    func imageHeader(_ info: ClipInfo) -> ImageHeader {
        let orientation: Orientation = switch info.rotation {
        case 90: .rotate90
        case 180: .rotate180
        case 270: .rotate270
        default: .normal
        }
        let pixels = ImageSize(width: info.storedWidth, height: info.storedHeight).pixelCount
        let (bytes, overflow) = pixels.multipliedReportingOverflow(by: Self.decoderFrames * Self.bytesPerPixel)
        return ImageHeader(format: "\(Self.formatName) (\(info.codec))",
                           storedSize: ImageSize(width: info.storedWidth, height: info.storedHeight), orientation: orientation,
                           workingBytes: overflow ? Int.max : bytes, clip: info)
    }

    /// The PhotoError a clip's refusal is, for the library's one warning naming the file.
    func photoError(_ error: ClipError, path: String) -> PhotoError {
        let format = Self.formatName
        let reason: PhotoError.Reason = switch error.reason {
        case let .unreadable(systemError): .unreadable(systemError)
        case let .fileTooLarge(bytes, _): .fileTooLarge(bytes: bytes, maxMegabytes: options.maxFileMegabytes)
        case let .ffmpeg(call, _, message): .corrupt(format: format, "\(call): \(message)")
        case .noVideoStream: .noImage
        case let .absurdSize(width, height) where width == 0 || height == 0: .zeroSize(width: width, height: height)
        case .absurdSize: .corrupt(format: format, "\(error.reason)")
        case let .tooLarge(width, height, maxMegapixels): .tooLarge(width: width, height: height, maxMegapixels: maxMegapixels)
        case .unsupportedCodec: .unsupported(format: format, "\(error.reason)")
        case .noDuration: .corrupt(format: format, "\(error.reason)")
        case .tooManyStreams: .unsupported(format: format, "\(error.reason)")
        }
        return PhotoError(path: path, reason: reason)
    }

    /// PhotoFile's reads as the clip reader's: a failed read is the system error it carries.
    private static func reader(_ file: PhotoFile) -> (Int, Int) throws -> [UInt8] {
        { count, offset in
            do {
                return try file.read(count: count, at: offset)
            } catch let error as PhotoError {
                if case let .unreadable(systemError) = error.reason { throw systemError }
                throw error
            }
        }
    }
}

extension ClipDecoder: ImageDecoder {
    static var formatName: String { "clip" }
    static var fileExtensions: [String] { ["mp4", "mov", "m4v", "mkv", "webm"] }

    /// ISO base media brands of video files (MP4, QuickTime, 3GPP, DASH...). HEIF and AVIF files
    /// start with an ftyp box too; their image brands (`HEIFFileType`) keep them theirs.
    static let videoBrands: Set<String> = ["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41",
                                           "mp42", "mp71", "avc1", "M4V ", "M4VH", "M4VP", "qt  ", "dash", "msnv", "MSNV",
                                           "XAVC", "f4v ", "mmp4", "nd1x"]
    /// Boxes a QuickTime movie without an ftyp box starts with.
    static let quickTimeBoxes: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]
    /// Matroska and WebM: the EBML header's ID.
    static let ebmlMagic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]

    static func claims(_ start: ArraySlice<UInt8>) -> Bool {
        if start.starts(with: ebmlMagic) { return true }
        if HEIFFileType.family(of: start) != nil { return false }
        if let (major, compatible) = HEIFFileType.brands(of: start) {
            return ([major] + compatible).contains { videoBrands.contains($0) || $0.hasPrefix("3gp") || $0.hasPrefix("3g2") }
        }
        let bytes = Array(start.prefix(8))
        return bytes.count == 8 && quickTimeBoxes.contains(HEIFFileType.fourCC(bytes[4..<8]))
    }

    /// A clip's captions are not read (its metadata is no EXIF or XMP a caption uses).
    static func metadata(in bytes: [UInt8]) -> ImageMetadata { .none }

    func header(start: [UInt8], file: PhotoFile) throws -> ImageHeader {
        do {
            return try imageHeader(ClipReader.info(name: file.path, size: file.size, limits: limits, read: Self.reader(file)))
        } catch {
            throw photoError(error, path: file.path)
        }
    }

    /// The poster: the first frame that decodes, at `target`, read from the file as the decoder
    /// needs it.
    func decode(file: PhotoFile, start: [UInt8], path: String, to target: ImageSize, metadata: Bool) throws -> (DecodedImage, ImageMetadata?) {
        let image = try poster(path: path, to: target) {
            try ClipReader(name: path, size: file.size, limits: limits, preferHardware: false, read: Self.reader(file))
        }
        return (image, metadata ? ImageMetadata.none : nil)
    }

    /// A whole clip in memory (the seam's other door; `PhotoDecoder` uses the file-based one).
    func decode(_ bytes: [UInt8], path: String, to target: ImageSize) throws -> DecodedImage {
        try poster(path: path, to: target) { try ClipReader(bytes: bytes, name: path, limits: limits) }
    }

    private func poster(path: String, to target: ImageSize, _ open: () throws -> ClipReader) throws -> DecodedImage {
        do {
            let reader = try open()
            guard let frame = try reader.nextFrame(width: target.width, height: target.height) else {
                throw PhotoError(path: path, reason: .corrupt(format: Self.formatName, "no frame of it decodes"))
            }
            let header = imageHeader(reader.info)
            let decodedSize = header.orientation.storedSize(target)
            return DecodedImage(bitmap: frame.bitmap, header: header,
                                scale: ScalingFactor(num: max(1, decodedSize.width), denom: max(1, header.storedSize.width)),
                                decodedSize: decodedSize, warning: nil)
        } catch let error as ClipError {
            throw photoError(error, path: path)
        }
    }
}
