import CFFmpeg
import Linux

/// Why a clip cannot be read or played: the file and a reason a kiosk integrator can act on, with
/// FFmpeg's call and message where FFmpeg refused it.
public struct ClipError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The file could not be opened or read, or is not one to read (not a regular file).
        case unreadable(SystemError)
        /// Larger than the bound the reader was given; refused before it is read.
        case fileTooLarge(bytes: Int, limit: Int)
        /// An FFmpeg call failed: its name, its error code and FFmpeg's message for it.
        case ffmpeg(call: String, code: Int32, message: String)
        /// A container without a video stream (sound only, or no stream at all).
        case noVideoStream
        /// A width or height of 0, or one past `ClipLimits.maxDimension`.
        case absurdSize(width: Int, height: Int)
        /// More pixels per frame than the bound allows.
        case tooLarge(width: Int, height: Int, maxMegapixels: Double)
        /// A codec this FFmpeg has no decoder for.
        case unsupportedCodec(String)
        /// Neither the stream nor the container says how long the clip is.
        case noDuration
        /// More streams than `ClipLimits.maxStreams` (libavformat stops at it and says ENOMEM).
        case tooManyStreams(limit: Int)

        public var description: String {
            switch self {
            case let .unreadable(error):
                return error.errno == nil ? "\(error.reason)" : "cannot read the file: \(error.descriptionWithoutPath)"
            case let .fileTooLarge(bytes, limit):
                return "file too large: \(bytes) bytes, above the limit of \(limit)"
            case let .ffmpeg(call, code, message):
                return "\(call) failed: \(message) (\(code))"
            case .noVideoStream:
                return "no video stream"
            case let .absurdSize(width, height):
                return "invalid frame size \(width)x\(height)"
            case let .tooLarge(width, height, maxMegapixels):
                let megapixels = (Double(width) * Double(height) / 1e5).rounded() / 10
                return "frames too large: \(width)x\(height) is \(megapixels) megapixels, above \(maxMegapixels)"
            case let .unsupportedCodec(name):
                return "unsupported codec \(name): no decoder for it here"
            case .noDuration:
                return "zero or unknown duration"
            case let .tooManyStreams(limit):
                return "more than \(limit) streams, the most Vitrine reads in a clip (video, sound and a few metadata tracks)"
            }
        }
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The failure of FFmpeg's `call`, which returned `code`, with FFmpeg's own message for it and
    /// what FFmpeg logged while the call ran (`FFmpegLog.watching`), which often names the cause
    /// the code hides ("moov atom not found" behind "Invalid data found when processing input").
    init(path: String, call: String, code: Int32, logged: [String] = []) {
        var message = Self.message(code)
        if !logged.isEmpty { message += " (FFmpeg: \(LogLine.escaped(logged.joined(separator: "; "))))" }
        self.init(path: path, reason: .ffmpeg(call: call, code: code, message: message))
    }

    public var description: String { "\(LogLine.escaped(path)): \(reason)" }

    /// FFmpeg's message for an error code (av_strerror; "Error number N occurred" for unknown ones).
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(code, &buffer, buffer.count)
        buffer[buffer.count - 1] = 0
        return String(cString: buffer)
    }
}
