import Clips

/// The `clip` fuzz target: the bytes as a clip file, read from memory through the same AVIOContext
/// bridge as a file: libavformat's probing (mov and matroska only) and header parse with the
/// reader's bounds, the best video stream, the display matrix, the size, codec and duration checks,
/// the decoder's choice and opening, then the first two frames decoded, converted by libswscale
/// and turned upright at 24x16, and after a rewind the first again at the clip's own size (where
/// libswscale only converts, with its widest SIMD loops) and at an odd size the input's last two
/// bytes choose (1x1 to 47x33, around libswscale's blocks of 8 and 16 pixels).
public enum ClipFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// Refused before decoding, with the reason a user would read.
        case rejected(String)
        /// Opened: how many frames came out (0: none decodes).
        case decoded(codec: String, frames: Int)
        /// Failed while decoding, with the reason.
        case undecodable(String)
    }

    /// Small frames, so that one input costs the fuzzer milliseconds.
    static let limits = ClipLimits(maxMegapixels: 0.5)

    /// 1...47 x 1...33 from the input's last two bytes.
    static func oddSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int) {
        guard bytes.count >= 2 else { return (17, 9) }
        return (1 + Int(bytes[bytes.count - 1]) % 47, 1 + Int(bytes[bytes.count - 2]) % 33)
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let reader: ClipReader
        do {
            reader = try ClipReader(bytes: Array(bytes), name: "fuzz.mp4", limits: limits)
        } catch {
            return .rejected("\(error)")
        }
        do {
            var frames = 0
            while frames < 2, try reader.nextFrame(width: 24, height: 16) != nil { frames += 1 }
            if frames > 0 {
                try reader.rewind()
                _ = try reader.nextFrame(width: reader.info.displayWidth, height: reader.info.displayHeight)
                let odd = oddSize(bytes)
                _ = try reader.nextFrame(width: odd.width, height: odd.height)
            }
            return .decoded(codec: reader.info.codec, frames: frames)
        } catch {
            return .undecodable("\(error)")
        }
    }
}
