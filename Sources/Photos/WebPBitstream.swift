import CWebP

/// One WebP bitstream as libwebp reads it: a whole still file, or one frame of an animation (its
/// ALPH and VP8 or VP8L chunks, as the demuxer gives it).
enum WebPBitstream {
    enum Kind: Equatable {
        case lossy, lossless
        /// An animation: its frames may be either.
        case mixed
    }

    struct Features: Equatable {
        /// The canvas of an extended file, else the bitstream's own size.
        let size: ImageSize
        let hasAlpha: Bool
        let isAnimated: Bool
        let kind: Kind
    }

    /// WebPGetFeatures: what the headers at the start of `data` say.
    static func features(of data: UnsafeBufferPointer<UInt8>) -> Result<Features, WebPStatus> {
        var features = WebPBitstreamFeatures()
        let code = WebPGetFeatures(data.baseAddress, data.count, &features)
        guard code == VP8_STATUS_OK else { return .failure(WebPStatus(call: "WebPGetFeatures", code: code)) }
        let kind: Kind = switch features.format {
        case 1: .lossy
        case 2: .lossless
        default: .mixed
        }
        return .success(Features(size: ImageSize(width: Int(features.width), height: Int(features.height)),
                                 hasAlpha: features.has_alpha != 0, isAnimated: features.has_animation != 0, kind: kind))
    }

    /// Decodes `data` into a rectangle of a 32-bit pixel buffer the caller owns (libwebp's
    /// "external memory"): `size` pixels from byte `offset` of `pixels`, rows `stride` bytes
    /// apart, scaled by libwebp's rescaler when `size` differs from the bitstream's own. Pixels are
    /// premultiplied BGRA bytes (MODE_bgrA), so a transparent pixel is black: alpha composed over
    /// black. libwebp checks the rectangle fits in the bytes it is given.
    ///
    /// No shortcut options: when libwebp scales below 3/4 it already skips the in-loop filter and
    /// the fancy upsampler by itself (io_dec.c, CustomSetup; `dwebp -nofilter -nofancy -scale`
    /// gives the same bytes as without), and no second thread (use_threads): the decode workers
    /// already keep the cores busy with one photo each.
    static func decode(_ data: UnsafeBufferPointer<UInt8>, into pixels: UnsafeMutableRawBufferPointer, offset: Int,
                       stride: Int, size: ImageSize, scaled: Bool) -> WebPStatus? {
        guard let base = pixels.baseAddress, offset >= 0, offset < pixels.count else {
            return WebPStatus(call: "WebPDecode", code: VP8_STATUS_INVALID_PARAM)
        }
        let config = DecoderConfig()
        guard config.isReady else { return WebPStatus(call: "WebPInitDecoderConfig", code: VP8_STATUS_INVALID_PARAM) }
        return config.decode(data) { config in
            config.options.use_scaling = scaled ? 1 : 0
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
            config.output.colorspace = MODE_bgrA
            // libwebp checks stride >= width * 4 and size >= stride * (height - 1) + width * 4
            // (WebPAllocateDecBuffer) and refuses a buffer short of them rather than write past it.
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = (base + offset).assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = pixels.count - offset
        }
    }

    /// A WebPDecoderConfig that owns its output buffer: whatever libwebp allocated for it (nothing
    /// with external memory, the whole picture without) is freed when the config goes.
    final class DecoderConfig {
        private var config = WebPDecoderConfig()
        let isReady: Bool

        init() {
            isReady = WebPInitDecoderConfig(&config) != 0
        }

        deinit {
            WebPFreeDecBuffer(&config.output)
        }

        /// WebPDecode of `data` with the config as `setUp` leaves it.
        func decode(_ data: UnsafeBufferPointer<UInt8>, setUp: (inout WebPDecoderConfig) -> Void) -> WebPStatus? {
            setUp(&config)
            let code = WebPDecode(data.baseAddress, data.count, &config)
            return code == VP8_STATUS_OK ? nil : WebPStatus(call: "WebPDecode", code: code)
        }
    }
}
