import Geometry
import Touch

/// The `evemu` fuzz target: a recording's text parsed as `simulate --replay` parses it, then every
/// event fed through the `TouchDecoder` that `run` uses on a live panel, mapped onto a 1920x1080
/// screen (turned 90 degrees, so that the whole transform runs).
public enum EvemuFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// The parser refused the text (with a line number and a reason).
        case rejected(String)
        /// A recording of a device the decoder cannot use (no touch protocol, no position axes).
        case unusableDevice(String)
        /// Decoded: how many events and how many touch frames came out.
        case decoded(events: Int, frames: Int)
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self)
        let recording: EvemuRecording
        do {
            recording = try EvemuRecording.parse(text: text)
        } catch {
            return .rejected("\(error)")
        }
        var decoder: TouchDecoder
        do {
            let transform = try TouchTransform(device: recording.device, screen: Size(width: 1920, height: 1080),
                                               rotation: 90)
            decoder = try TouchDecoder(device: recording.device, transform: transform)
        } catch {
            return .unusableDevice("\(error)")
        }
        var frames = 0
        for event in recording.replayEvents(firstEventAt: 0.5) where decoder.feed(event) != nil {
            frames += 1
        }
        return .decoded(events: recording.events.count, frames: frames)
    }
}
