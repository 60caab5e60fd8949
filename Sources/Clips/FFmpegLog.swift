import CFFmpeg

/// FFmpeg's own log, which goes to stderr: silenced once, because every failure that matters
/// comes back as a `ClipError` (the call and FFmpeg's message) and is logged once by its reader,
/// while a corrupt clip makes the decoders print a line per broken slice.
enum FFmpegLog {
    private static let silenced: Void = av_log_set_level(AV_LOG_QUIET)

    static func silence() { _ = silenced }
}
