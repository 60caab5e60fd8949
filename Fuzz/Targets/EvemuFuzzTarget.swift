import Geometry
import Scene
import Touch

/// The `evemu` fuzz target: a recording's text parsed as `simulate --replay` parses it, then every
/// event fed through the `TouchDecoder` that `run` uses on a live panel, mapped onto a 1920x1080
/// screen (turned 90 degrees, so that the whole transform runs), and the frames through the
/// `Scene` (gestures, velocities, scroll physics, the grid's whole cells), a frame sampled after
/// each. The same events go through a second decoder whose calibration matrix is 1e308 (finite,
/// so accepted, but its products overflow): every value a device or a recording can give reaches
/// the conversions to whole numbers (issue #22).
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
        var calibrated = try? TouchDecoder(device: recording.device, transform: TouchTransform(
            device: recording.device, screen: Size(width: 1920, height: 1080),
            calibration: [1e308, -1e308, 1e308, -1e308, 1e308, -1e308]))
        let scene = Scene(parameters: SceneParameters(), screenSize: Size(width: 1920, height: 1080),
                          photoSizes: (0..<100).map { $0 % 3 == 0 ? Size(width: 3000, height: 4000) : Size(width: 4000, height: 3000) })
        var frames = 0
        for event in recording.replayEvents(firstEventAt: 0.5) {
            for frame in [decoder.feed(event), calibrated?.feed(event)].compactMap({ $0 }) {
                frames += 1
                // Bounded work per input: the scene sees the first few thousand frames.
                guard frames <= 4000 else { continue }
                scene.handle(frame)
                _ = scene.frame(at: frame.time).gridCells.map(\.rect.enclosingPixels)
            }
        }
        return .decoded(events: recording.events.count, frames: frames)
    }
}
