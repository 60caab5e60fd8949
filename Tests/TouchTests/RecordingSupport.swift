import Foundation
import Geometry
import Testing
@testable import Touch

/// The recordings copied into the test bundle (see Recordings/ATTRIBUTION.md).
enum Recordings {
    static func text(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Recordings"),
                               "missing recording \(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A single-file recording (`*.evemu`).
    static func load(_ name: String) throws -> EvemuRecording {
        try EvemuRecording.parse(text: text(name))
    }

    /// A split recording: `<device>.desc` with `<device>.<gesture>.events`.
    static func load(device: String, events: String) throws -> EvemuRecording {
        try EvemuRecording.parse(description: text("\(device).desc"), events: text("\(device).\(events).events"))
    }

    /// Every frame the decoder produces for the whole recording, on an unrotated screen.
    static func frames(of recording: EvemuRecording, screen: Size) throws -> [TouchFrame] {
        let transform = try TouchTransform(device: recording.device, screen: screen)
        var decoder = try TouchDecoder(device: recording.device, transform: transform)
        return recording.events.compactMap { decoder.feed($0) }
    }
}

/// One finger from touch-down to lift: its id and its positions, one per frame it was down in.
struct Stroke {
    var id: Int
    var positions: [Point]
    var first: Point { positions[0] }
    var last: Point { positions[positions.count - 1] }
}

/// The strokes in `frames`, in the order the fingers went down. A stroke ends when its id is
/// missing from a frame; an id that comes back later starts a new stroke.
func strokes(in frames: [TouchFrame]) -> [Stroke] {
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
