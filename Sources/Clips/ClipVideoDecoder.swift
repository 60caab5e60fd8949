import CFFmpeg

/// The clip's video decoder, chosen once: the V4L2 memory-to-memory hardware decoder first where
/// there is one for the codec (`h264_v4l2m2m` on a Raspberry Pi; opening it fails where no
/// /dev/video* m2m device exists), FFmpeg's software decoder otherwise. Owns the AVCodecContext.
final class ClipVideoDecoder {
    /// Hardware decoders tried first, by codec.
    static let hardware: [AVCodecID: String] = [AV_CODEC_ID_H264: "h264_v4l2m2m"]
    /// Software decoders preferred by name where FFmpeg registers more than one: dav1d is the fast
    /// AV1 decoder (FFmpeg's own "av1" needs a hardware accelerator), libaom the fallback.
    static let software: [AVCodecID: [String]] = [AV_CODEC_ID_AV1: ["libdav1d", "libaom-av1"]]

    /// Software decoding threads. One: the clip decodes on its own worker thread, and the board has
    /// two cores, the other of which draws the frame loop at 60 Hz; a second decoding thread would
    /// compete with the loop during a drag (SPEC §12: the touch interaction keeps 60 fps), and
    /// frame threading would add a frame of latency and a full-size picture of memory per thread.
    static let defaultThreads: Int32 = 1

    let name: String
    let isHardware: Bool
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?

    init(stream: UnsafeMutablePointer<AVStream>, path: String, limits: ClipLimits, preferHardware: Bool,
         threads: Int32 = ClipVideoDecoder.defaultThreads) throws(ClipError) {
        let parameters = stream.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        var candidates: [(codec: UnsafePointer<AVCodec>, hardware: Bool)] = []
        if preferHardware, let name = Self.hardware[codecID], let codec = avcodec_find_decoder_by_name(name) {
            candidates.append((codec, true))
        }
        for name in Self.software[codecID] ?? [] {
            if let codec = avcodec_find_decoder_by_name(name) { candidates.append((codec, false)) }
        }
        if let codec = avcodec_find_decoder(codecID) { candidates.append((codec, false)) }
        guard !candidates.isEmpty else {
            throw ClipError(path: path, reason: .unsupportedCodec(String(cString: avcodec_get_name(codecID))))
        }
        var lastError = ClipError(path: path, reason: .unsupportedCodec(String(cString: avcodec_get_name(codecID))))
        for candidate in candidates {
            guard let context = avcodec_alloc_context3(candidate.codec) else {
                throw ClipError(path: path, call: "avcodec_alloc_context3", code: vitrine_averror(ENOMEM))
            }
            var status = avcodec_parameters_to_context(context, parameters)
            var logged: [String] = []
            if status >= 0 {
                context.pointee.pkt_timebase = stream.pointee.time_base
                context.pointee.thread_count = threads
                // The decoder refuses a picture larger than the bound even where the container
                // said a small size (an SPS can claim anything).
                let pixels = min(limits.maxMegapixels * 1_000_000, Double(ClipLimits.maxDimension * ClipLimits.maxDimension))
                context.pointee.max_pixels = Int64(max(1, pixels.isFinite ? pixels : 1))
                (status, logged) = FFmpegLog.watching(context) { avcodec_open2(context, candidate.codec, nil) }
            }
            if status >= 0 {
                self.context = context
                name = String(cString: candidate.codec.pointee.name)
                isHardware = candidate.hardware
                return
            }
            lastError = ClipError(path: path, call: "avcodec_open2 (\(String(cString: candidate.codec.pointee.name)))",
                                  code: status, logged: logged)
            var failed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&failed)
        }
        throw lastError
    }

    deinit {
        avcodec_free_context(&context)
    }

    func send(_ packet: UnsafeMutablePointer<AVPacket>?) -> Int32 { avcodec_send_packet(context, packet) }

    func receive(_ frame: UnsafeMutablePointer<AVFrame>) -> Int32 { avcodec_receive_frame(context, frame) }

    /// Forgets every frame it holds (after a seek).
    func flush() { avcodec_flush_buffers(context) }
}
