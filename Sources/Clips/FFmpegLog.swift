import CFFmpeg
import Glibc
import Synchronization

/// FFmpeg's own log, which goes to stderr by default: replaced once by a callback that prints
/// nothing, because every failure that matters comes back as a `ClipError` and is logged once by
/// its reader, while a corrupt clip makes the decoders print a line per broken slice.
///
/// What FFmpeg logs at error level about a context being watched is kept, though: a call's error
/// code often hides the cause its message names. avformat_open_input answers ENOMEM ("Cannot
/// allocate memory") when a file has more streams than the max_streams Vitrine set, and only the
/// log says "Number of streams exceeds max_streams parameter (32)"; "Invalid data found when
/// processing input" is the log's "moov atom not found".
enum FFmpegLog {
    /// Messages kept per watched context, and their length: enough for a cause, bounded for a
    /// file that makes a demuxer log a line per box.
    static let keptMessages = 4
    static let messageBytes = 200

    private static let installed: Void = av_log_set_callback { context, level, format, arguments in
        guard level <= AV_LOG_ERROR, let context, let format, let arguments else { return }
        FFmpegLog.record(context, format, arguments)
    }

    /// The watched contexts' addresses and what was logged about each.
    private static let watched = Mutex<[UInt: [String]]>([:])

    static func silence() { _ = installed }

    /// `body`'s result, and FFmpeg's error-level messages about `context` (an AVFormatContext or
    /// AVCodecContext, as FFmpeg passes it to av_log) while it ran, oldest first.
    static func watching<Context, Result, Failure: Error>(_ context: UnsafeMutablePointer<Context>,
                                                          _ body: () throws(Failure) -> Result) throws(Failure) -> (Result, [String]) {
        silence()
        let context = UInt(bitPattern: context)
        watched.withLock { $0[context] = [] }
        defer { watched.withLock { _ = $0.removeValue(forKey: context) } }
        let result = try body()
        return (result, watched.withLock { $0[context] ?? [] })
    }

    private static func record(_ pointer: UnsafeMutableRawPointer, _ format: UnsafePointer<CChar>, _ arguments: CVaListPointer) {
        let context = UInt(bitPattern: pointer)
        guard watched.withLock({ $0[context].map { $0.count < keptMessages } ?? false }) else { return }
        var buffer = [CChar](repeating: 0, count: messageBytes)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        buffer[buffer.count - 1] = 0
        var bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        while let last = bytes.last, last == 0x0A || last == 0x20 { bytes.removeLast() }
        guard !bytes.isEmpty else { return }
        let message = String(decoding: bytes, as: UTF8.self)
        watched.withLock { messages in
            if messages[context] != nil { messages[context]!.append(message) }
        }
    }
}
