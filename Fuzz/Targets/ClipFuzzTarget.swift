import Clips

/// The `clip` fuzz target: the bytes as a clip file, read from memory through the same AVIOContext
/// bridge as a file: libavformat's probing (mov and matroska only) and header parse with the
/// reader's bounds, the best video stream, the display matrix, the size, codec and duration checks,
/// the decoder's choice and opening, then the first two frames decoded, converted by libswscale
/// and turned upright at 24x16, and a rewind to the first again.
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
                _ = try reader.nextFrame(width: 16, height: 24)
            }
            return .decoded(codec: reader.info.codec, frames: frames)
        } catch {
            return .undecodable("\(error)")
        }
    }
}
