import Config
import Devices
import Geometry
import Linux
import Scene
import Touch

/// An evemu recording replayed as `run` would see the device: the same TouchDecoder, the same axis
/// mapping onto the screen, the first event at 0.5 s of the simulation (SPEC §6).
public final class ReplayInput: ScriptedInput {
    private var queue: [SceneInput]
    public let endTime: Double
    public let deviceName: String
    /// Events stamped earlier than the one before them (replayed in file order, at that one's time).
    public let outOfOrderEvents: Int

    /// `path` is an evemu-record file, or "DEVICE.desc,EVENTS.events" for the old split format; an
    /// .events file alone finds its .desc beside it.
    public init(path: String, screenSize: Size, input: Settings.Input, display: Settings.Display) throws {
        let recording = try Self.load(path)
        var decoder: TouchDecoder
        do {
            let transform = try TouchMapping.transform(for: recording.device, screen: screenSize, input: input,
                                                       displayRotation: display.rotation ?? .none)
            decoder = try TouchDecoder(device: recording.device, transform: transform)
        } catch {
            throw AppError("cannot replay \(path): \(error)")
        }
        deviceName = recording.device.name
        outOfOrderEvents = recording.outOfOrderEvents
        let replayed = recording.replayEvents(firstEventAt: 0.5)
        if let last = replayed.last?.time, last > Simulator.maximumTime {
            throw AppError("cannot replay \(LogLine.escaped(path)): its events go on to \(Int(exactly: last.rounded(.down)).map(String.init) ?? "\(last)") s of virtual time; "
                           + "simulate ends at most at \(Int(Simulator.maximumTime)) s", exitCode: 2)
        }
        var events: [SceneInput] = []
        for event in replayed {
            if event.type == EventType.key, event.value == 1, event.code == KeyCode.esc || event.code == KeyCode.back {
                events.append(.back(time: event.time))
            } else if let frame = decoder.feed(event) {
                events.append(.touch(frame))
            }
        }
        queue = events
        endTime = events.last?.time ?? 0.5
    }

    public func events(through time: Double, lastFrame: SceneFrame) -> [SceneInput] {
        let due = queue.prefix { $0.time <= time }
        queue.removeFirst(due.count)
        return Array(due)
    }

    static func load(_ path: String) throws -> EvemuRecording {
        do {
            return try EvemuRecording.load(path: path)
        } catch let error as SystemError {
            throw AppError("cannot read the recording: \(error)", exitCode: 2)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError("cannot replay \(path): \(error)", exitCode: 2)
        }
    }
}
