import Foundation
import Geometry
import Touch

/// The real touch recordings kept with the Touch tests (see Tests/TouchTests/Recordings/ATTRIBUTION.md).
public enum Recordings {
    public static func text(_ name: String) throws -> String {
        try String(contentsOfFile: TestPaths.recording(name), encoding: .utf8)
    }

    /// A single-file recording (`*.evemu`).
    public static func load(_ name: String) throws -> EvemuRecording {
        try EvemuRecording.parse(text: text(name))
    }

    /// A split recording: `<device>.desc` with `<device>.<gesture>.events`.
    public static func load(device: String, events: String) throws -> EvemuRecording {
        try EvemuRecording.parse(description: text("\(device).desc"), events: text("\(device).\(events).events"))
    }

    /// Every frame the decoder produces for the whole recording, on an unrotated screen.
    public static func frames(of recording: EvemuRecording, screen: Size) throws -> [TouchFrame] {
        let transform = try TouchTransform(device: recording.device, screen: screen)
        var decoder = try TouchDecoder(device: recording.device, transform: transform)
        return recording.events.compactMap { decoder.feed($0) }
    }
}

/// One finger from touch-down to lift: its id and its positions, one per frame it was down in.
public struct Stroke: Sendable {
    public var id: Int
    public var positions: [Point]
    public var first: Point { positions[0] }
    public var last: Point { positions[positions.count - 1] }
}

/// The strokes in `frames`, in the order the fingers went down. A stroke ends when its id is
/// missing from a frame; an id that comes back later starts a new stroke.
public func strokes(in frames: [TouchFrame]) -> [Stroke] {
    var finished: [Stroke] = []
    var open: [Int: Stroke] = [:]
    var order: [Int] = []
    for frame in frames {
        let ids = Set(frame.contacts.map(\.id))
        for id in order where !ids.contains(id) {
            if let stroke = open.removeValue(forKey: id) { finished.append(stroke) }
        }
        order.removeAll { !ids.contains($0) }
        for contact in frame.contacts {
            if open[contact.id] == nil {
                open[contact.id] = Stroke(id: contact.id, positions: [])
                order.append(contact.id)
            }
            open[contact.id]?.positions.append(contact.position)
        }
    }
    finished += order.compactMap { open[$0] }
    return finished
}
