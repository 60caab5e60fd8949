import CFFmpeg
import Geometry
import Linux

/// A clip's container opened by libavformat over a `ClipInput`, with bounded probing: its best
/// video stream and the `ClipInfo` read from it, nothing decoded. Owns the AVFormatContext.
final class ClipDemuxer {
    /// The containers a clip may be (SPEC §12: .mp4, .mov, .m4v, .mkv, .webm); libavformat refuses
    /// every other demuxer, so no playlist or concat script can make it open another file.
    static let formats = "mov,matroska"

    let input: ClipInput
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let streamIndex: Int32
    let info: ClipInfo
    let timeBase: ClipTimeBase

    init(input: ClipInput, limits: ClipLimits) throws(ClipError) {
        FFmpegLog.silence()
        self.input = input
        let path = input.path
        guard var context = avformat_alloc_context() else {
            throw ClipError(path: path, call: "avformat_alloc_context", code: vitrine_averror(ENOMEM))
        }
        context.pointee.pb = input.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.probesize = limits.probeBytes
        context.pointee.format_probesize = Int32(clamping: limits.probeBytes)
        context.pointee.max_analyze_duration = limits.analyzeMicroseconds
        context.pointee.max_streams = limits.maxStreams
        // Nothing but the clip's own bytes: a reference to another file or URL is refused.
        context.pointee.io_open = { _, _, _, _, _ in vitrine_averror(EPERM) }
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", Self.formats, 0)
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let (status, logged) = FFmpegLog.watching(context) { avformat_open_input(&opened, nil, nil, &options) }
        av_dict_free(&options)
        guard status >= 0, let opened else {
            // avformat_open_input freed the context.
            throw Self.readError(input) ?? Self.error(path: path, call: "avformat_open_input", code: status, logged: logged,
                                                      limits: limits)
        }
        context = opened
        self.context = context

        do throws(ClipError) {
            if Self.needsStreamInfo(context) {
                let (status, logged) = FFmpegLog.watching(context) { avformat_find_stream_info(context, nil) }
                if status < 0 {
                    throw Self.readError(input) ?? Self.error(path: path, call: "avformat_find_stream_info", code: status,
                                                              logged: logged, limits: limits)
                }
            }
            let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            guard index >= 0, index < context.pointee.nb_streams, let stream = context.pointee.streams[Int(index)] else {
                throw ClipError(path: path, reason: .noVideoStream)
            }
            streamIndex = index
            timeBase = ClipTimeBase(stream.pointee.time_base)
            info = try Self.info(of: stream, in: context, path: path, limits: limits)
        } catch {
            avformat_close_input(&self.context)
            throw error
        }
    }

    deinit {
        avformat_close_input(&context)
    }

    var stream: UnsafeMutablePointer<AVStream> { context!.pointee.streams[Int(streamIndex)]! }

    /// Whether the container's headers leave the video stream's codec, size or duration unknown,
    /// so that libavformat must read (and decode) packets to find them. MP4 and Matroska headers
    /// say all three, so a library scan reads no frame.
    private static func needsStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        let streams = UnsafeBufferPointer(start: context.pointee.streams, count: Int(context.pointee.nb_streams))
        let video = streams.compactMap { $0 }.filter { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        return video.isEmpty ? streams.isEmpty == false : video.contains { stream in
            let parameters = stream.pointee.codecpar.pointee
            return parameters.codec_id == AV_CODEC_ID_NONE || parameters.width <= 0 || parameters.height <= 0
                || duration(of: stream, in: context) == 0
        }
    }

    /// The failure of `call`, which returned `code`, told by its real cause where FFmpeg's log
    /// names one: ENOMEM from a stream past `limits.maxStreams` is that limit, not memory.
    private static func error(path: String, call: String, code: Int32, logged: [String], limits: ClipLimits) -> ClipError {
        if code == vitrine_averror(ENOMEM), logged.contains(where: { $0.contains("max_streams") }) {
            return ClipError(path: path, reason: .tooManyStreams(limit: Int(limits.maxStreams)))
        }
        return ClipError(path: path, call: call, code: code, logged: logged)
    }

    private static func readError(_ input: ClipInput) -> ClipError? {
        guard let error = input.readError else { return nil }
        if let error = error as? SystemError { return ClipError(path: input.path, reason: .unreadable(error)) }
        return ClipError(path: input.path, reason: .ffmpeg(call: "read", code: vitrine_averror(EIO), message: "\(error)"))
    }

    private static func info(of stream: UnsafeMutablePointer<AVStream>, in context: UnsafeMutablePointer<AVFormatContext>,
                             path: String, limits: ClipLimits) throws(ClipError) -> ClipInfo {
        let parameters = stream.pointee.codecpar.pointee
        let codec = String(cString: avcodec_get_name(parameters.codec_id))
        let (width, height) = (Int(parameters.width), Int(parameters.height))
        guard (1...ClipLimits.maxDimension).contains(width), (1...ClipLimits.maxDimension).contains(height) else {
            throw ClipError(path: path, reason: .absurdSize(width: width, height: height))
        }
        guard Double(width) * Double(height) <= limits.maxMegapixels * 1_000_000 else {
            throw ClipError(path: path, reason: .tooLarge(width: width, height: height, maxMegapixels: limits.maxMegapixels))
        }
        let duration = Self.duration(of: stream, in: context)
        guard duration > 0, duration.isFinite else { throw ClipError(path: path, reason: .noDuration) }
        var frameRate = ClipTimeBase.value(stream.pointee.avg_frame_rate)
        if frameRate == 0 { frameRate = ClipTimeBase.value(stream.pointee.r_frame_rate) }
        return ClipInfo(container: String(cString: context.pointee.iformat.pointee.name), codec: codec,
                        storedWidth: width, storedHeight: height, rotation: rotation(of: stream),
                        duration: duration, frameRate: frameRate.isFinite ? frameRate : 0)
    }

    /// The stream's duration, else the container's; 0 when neither says.
    private static func duration(of stream: UnsafeMutablePointer<AVStream>, in context: UnsafeMutablePointer<AVFormatContext>) -> Double {
        let noValue = vitrine_av_nopts_value()
        let ticks = stream.pointee.duration
        if ticks != noValue, ticks > 0 {
            let seconds = ClipTimeBase(stream.pointee.time_base).seconds(ticks)
            if seconds > 0, seconds.isFinite { return seconds }
        }
        let microseconds = context.pointee.duration
        guard microseconds != noValue, microseconds > 0 else { return 0 }
        return Double(microseconds) / Double(AV_TIME_BASE)
    }

    /// Degrees clockwise (0, 90, 180, 270) from the display matrix. FFmpeg's angle is counter-
    /// clockwise (-90: turn 90 degrees clockwise to display); a matrix that is no rotation (NaN)
    /// or a flip is shown as stored, rounded to the nearest quarter turn.
    private static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let matrix = vitrine_stream_display_matrix(stream) else { return 0 }
        let angle = av_display_rotation_get(matrix)
        guard angle.isFinite else { return 0 }
        let quarterTurns = Int(saturating: (-angle / 90).rounded()) % 4
        return (quarterTurns + 4) % 4 * 90
    }
}
