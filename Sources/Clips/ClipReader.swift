import Blitter
import CFFmpeg
import Linux

/// A clip read by FFmpeg's libraries (SPEC §12), the one `ClipFrameSource` of the product: the
/// file through the Linux layer (`ClipInput`), the container by libavformat with bounded probing
/// (`ClipDemuxer`), the best video stream decoded by the hardware decoder where there is one, else
/// in software (`ClipVideoDecoder`), each frame converted by libswscale to XRGB8888 at the size
/// asked for (`ClipFrameScaler`) and turned upright by the blitter. The clip is checked before
/// anything is decoded (no video stream, absurd or too large dimensions, no decoder, no duration),
/// each refusal a `ClipError` with its reason. Owns its FFmpeg resources; one thread reads it.
public final class ClipReader: ClipFrameSource {
    public let info: ClipInfo
    public let path: String
    /// The decoder FFmpeg opened ("h264_v4l2m2m", "h264", "libdav1d"), for the log.
    public var decoderName: String { decoder.name }
    /// True for the V4L2 memory-to-memory hardware decoder.
    public var isHardware: Bool { decoder.isHardware }

    private let demuxer: ClipDemuxer
    private let decoder: ClipVideoDecoder
    private let scaler = ClipFrameScaler()
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The first frame's timestamp: frame times count from it.
    private var firstTimestamp: Int64?
    private var lastTime = 0.0
    private var nextIndex = 0
    /// The demuxer has no more packets: the decoder is being drained.
    private var draining = false
    private var finished = false

    /// The clip at `path`, opened and checked against `limits`; `preferHardware` tries the V4L2
    /// decoder first (the player; a poster decodes in software, beside the player).
    public convenience init(path: String, limits: ClipLimits = ClipLimits(), preferHardware: Bool = true) throws(ClipError) {
        try self.init(input: ClipInput(path: path, limits: limits), limits: limits, preferHardware: preferHardware)
    }

    /// A clip in memory (the fuzzer, tests); `name` is for messages.
    public convenience init(bytes: [UInt8], name: String, limits: ClipLimits = ClipLimits(),
                            preferHardware: Bool = false) throws(ClipError) {
        try self.init(input: ClipInput(bytes: bytes, name: name), limits: limits, preferHardware: preferHardware)
    }

    /// A file someone else opened (Photos' decoder): `size` bytes, read through `read(count, offset)`.
    public convenience init(name: String, size: Int, limits: ClipLimits = ClipLimits(), preferHardware: Bool = false,
                            read: @escaping (_ count: Int, _ offset: Int) throws -> [UInt8]) throws(ClipError) {
        guard size <= limits.maxFileBytes else {
            throw ClipError(path: name, reason: .fileTooLarge(bytes: size, limit: limits.maxFileBytes))
        }
        try self.init(input: ClipInput(name: name, size: size, read: read), limits: limits, preferHardware: preferHardware)
    }

    private init(input: ClipInput, limits: ClipLimits, preferHardware: Bool) throws(ClipError) {
        path = input.path
        demuxer = try ClipDemuxer(input: input, limits: limits)
        info = demuxer.info
        decoder = try ClipVideoDecoder(stream: demuxer.stream, path: path, limits: limits, preferHardware: preferHardware)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, frame != nil else {
            av_packet_free(&packet)
            av_frame_free(&frame)
            throw ClipError(path: path, call: "av_frame_alloc", code: vitrine_averror(ENOMEM))
        }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// The header of the clip at `path` alone, nothing decoded (the library scan).
    public static func info(path: String, limits: ClipLimits = ClipLimits()) throws(ClipError) -> ClipInfo {
        try ClipDemuxer(input: ClipInput(path: path, limits: limits), limits: limits).info
    }

    /// The header of a file someone else opened, nothing decoded.
    public static func info(name: String, size: Int, limits: ClipLimits = ClipLimits(),
                            read: @escaping (_ count: Int, _ offset: Int) throws -> [UInt8]) throws(ClipError) -> ClipInfo {
        guard size <= limits.maxFileBytes else {
            throw ClipError(path: name, reason: .fileTooLarge(bytes: size, limit: limits.maxFileBytes))
        }
        return try ClipDemuxer(input: ClipInput(name: name, size: size, read: read), limits: limits).info
    }

    public func nextFrame(width: Int, height: Int) throws -> ClipFrame? {
        let width = min(max(width, 1), ClipLimits.maxDimension), height = min(max(height, 1), ClipLimits.maxDimension)
        let turns = info.rotation / 90
        // Scaled at the stored orientation, then turned: the turned picture is width x height.
        let (storedWidth, storedHeight) = turns % 2 == 0 ? (width, height) : (height, width)
        while let frame = try decodeFrame() {
            defer { av_frame_unref(frame) }
            guard let stored = scaler.convert(frame, width: storedWidth, height: storedHeight) else { continue }
            let time = time(of: frame)
            let index = nextIndex
            nextIndex += 1
            guard turns != 0 else { return ClipFrame(index: index, time: time, bitmap: stored) }
            var upright = Bitmap(width: width, height: height)
            stored.rotated(quarterTurns: turns, into: &upright)
            return ClipFrame(index: index, time: time, bitmap: upright)
        }
        return nil
    }

    public func rewind() throws {
        // To the stream's first timestamp (its start time, else 0), to the key frame at or before it.
        let start = demuxer.stream.pointee.start_time
        let target = start == vitrine_av_nopts_value() ? 0 : start
        let status = av_seek_frame(demuxer.context, demuxer.streamIndex, target, AVSEEK_FLAG_BACKWARD)
        if status < 0 {
            // A container that cannot seek by timestamp still can by bytes, to its first packet.
            let byByte = av_seek_frame(demuxer.context, -1, 0, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_BYTE)
            guard byByte >= 0 else { throw ClipError(path: path, call: "av_seek_frame", code: status) }
        }
        decoder.flush()
        firstTimestamp = nil
        lastTime = 0
        nextIndex = 0
        draining = false
        finished = false
    }

    /// The next frame the decoder gives, or nil at the end: packets of other streams and packets
    /// the decoder refuses are skipped; at the demuxer's end the decoder is drained.
    private func decodeFrame() throws -> UnsafeMutablePointer<AVFrame>? {
        guard let frame, let packet, !finished else { return nil }
        while true {
            let received = decoder.receive(frame)
            if received >= 0 { return frame }
            if received == vitrine_averror_eof() {
                finished = true
                return nil
            }
            // Draining, a decoder gives frames, then EOF; an error (or a decoder that breaks the
            // API with EAGAIN) ends the clip rather than spin. Otherwise an error is a broken
            // picture, and the decoder goes on with the next packet.
            if draining {
                finished = true
                return nil
            }
            let read = av_read_frame(demuxer.context, packet)
            if read < 0 {
                if read != vitrine_averror_eof(), let error = demuxer.input.readError {
                    throw ClipError(path: path, reason: .ffmpeg(call: "av_read_frame", code: read, message: "\(error)"))
                }
                // The end, or data libavformat cannot parse on: what the decoder holds still shows.
                draining = true
                _ = decoder.send(nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == demuxer.streamIndex else { continue }
            let sent = decoder.send(packet)
            if sent < 0, sent != vitrine_averror_eagain() {
                continue  // a packet the decoder refuses: skipped
            }
        }
    }

    /// Seconds from the first frame's timestamp; a frame without one follows the last by a frame.
    private func time(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        let timestamp = frame.pointee.best_effort_timestamp
        let step = info.frameRate > 0 ? 1 / info.frameRate : 0
        var time: Double
        if timestamp == vitrine_av_nopts_value() {
            time = nextIndex == 0 ? 0 : lastTime + step
        } else {
            let first = firstTimestamp ?? timestamp
            firstTimestamp = first
            time = demuxer.timeBase.seconds(timestamp) - demuxer.timeBase.seconds(first)
        }
        if !time.isFinite { time = lastTime + step }
        lastTime = time
        return time
    }
}
