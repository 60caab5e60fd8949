import Linux

/// Why a photo cannot be shown: the file and a reason a kiosk integrator can act on.
public struct PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The file could not be opened or read (the call and errno), or is not one to read: not
        /// a regular file, or too large.
        case unreadable(SystemError)
        /// Zero bytes.
        case empty
        /// No decoder claims the file: its first bytes are no format Vitrine reads (a text file,
        /// or a format of SPEC §11 whose decoder is not there yet).
        case unknownFormat(firstBytes: [UInt8])
        /// The format's headers but no image in them (a JPEG of only SOI and EOI).
        case noImage
        /// The file ends (or its headers break off) before the image data starts.
        case truncatedHeader
        /// All headers but no image data after them.
        case noImageData
        /// A file larger than `photos.max_file_megabytes`; refused before it is read.
        case fileTooLarge(bytes: Int, maxMegabytes: Int)
        /// A width or height of 0 in the header.
        case zeroSize(width: Int, height: Int)
        /// More pixels than `photos.max_megapixels` allows; refused before any pixel is allocated.
        case tooLarge(width: Int, height: Int, maxMegapixels: Double)
        /// A decode that would hold more than `DecodeOptions.memoryBudget` besides its output (the
        /// file and the decoder's buffers, as its headers declare them: a PNG's rows as wide as its
        /// width, a HEIF grid's whole image); refused before any of it is allocated.
        case tooLargeForMemory(needs: Int, budget: Int)
        /// A valid file of `format` its decoder does not handle (a 12-bit JPEG, ...).
        case unsupported(format: String, String)
        /// The decoder of `format` refused the data: its own message.
        case corrupt(format: String, String)
        /// Not the file the library scan read (`FileVersion`): written again since, or being
        /// written; the folder watch's rescan lists it again once its writer is done. Never a
        /// scan's reason.
        case changed(since: FileVersion, now: FileVersion)

        /// The reasons a scan skips a photo for, as `/metrics` labels them, every one (a gauge per
        /// reason, zeros too; not `changed`, which is a decode's, never a scan's). They name what is
        /// wrong with the file, never a format, so that one more decoder adds none.
        public static let labels = ["unreadable", "empty", "unknown_format", "no_image", "truncated_header", "no_image_data",
                                    "file_too_large", "zero_size", "too_large", "unsupported", "corrupt"]

        public var label: String {
            switch self {
            case .unreadable: "unreadable"
            case .empty: "empty"
            case .unknownFormat: "unknown_format"
            case .noImage: "no_image"
            case .truncatedHeader: "truncated_header"
            case .noImageData: "no_image_data"
            case .fileTooLarge: "file_too_large"
            case .zeroSize: "zero_size"
            case .tooLarge, .tooLargeForMemory: "too_large"
            case .unsupported: "unsupported"
            case .corrupt: "corrupt"
            case .changed: "changed"
            }
        }

        public var description: String {
            switch self {
            case let .unreadable(error):
                // "not a regular file (a FIFO)" says it all; a failed call gets its name and errno.
                return error.errno == nil ? "\(error.reason)" : "cannot read the file: \(error.descriptionWithoutPath)"
            case .empty:
                return "empty file (0 bytes)"
            case let .unknownFormat(bytes):
                let hex = bytes.map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }
                return "not an image format Vitrine reads (starts with \(hex.joined(separator: " ")))"
            case .noImage:
                return "headers but no image in them"
            case .truncatedHeader:
                return "truncated: the file ends inside its headers"
            case .noImageData:
                return "truncated: headers only, no image data"
            case let .fileTooLarge(bytes, maxMegabytes):
                return "file too large: \((Double(bytes) / 1048576).formatted1) MB, above photos.max_file_megabytes = \(maxMegabytes)"
            case let .zeroSize(width, height):
                return "invalid image size \(width)x\(height) in the header"
            case let .tooLarge(width, height, maxMegapixels):
                let megapixels = Double(width) * Double(height) / 1e6
                return "image too large: \(width)x\(height) is \(megapixels.formatted1) megapixels, "
                    + "above photos.max_megapixels = \(maxMegapixels.formatted1)"
            case let .tooLargeForMemory(needs, budget):
                return "its decode would hold \(Self.megabytes(needs)) (the file and the decoder's buffers), more than the "
                    + "\(budget >> 20) MB a decode may (cache.megabytes, or 8 bytes a pixel of photos.max_megapixels)"
            case let .unsupported(format, what):
                return "unsupported \(format): \(what)"
            case let .corrupt(format, message):
                return "corrupt or unsupported \(format): \(message)"
            case let .changed(since, now):
                return "changed since the folder was read (\(since); now \(now)): being written or replaced"
            }
        }

        /// Whole megabytes, rounded up; "more than 1000000 MB" for what no machine has.
        static func megabytes(_ bytes: Int) -> String {
            bytes >= 1 << 50 ? "more than \(1 << 30) MB" : "\((bytes + (1 << 20) - 1) >> 20) MB"
        }
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(LogLine.escaped(path)): \(reason)" }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

private extension Double {
    /// One decimal, without Foundation's locale-dependent formatting.
    var formatted1: String {
        let tenths = (self * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(self)" }
        let value = Int(tenths)
        return "\(value / 10).\(abs(value % 10))"
    }
}
