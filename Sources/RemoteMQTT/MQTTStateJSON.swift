import Foundation
import RemoteControl

/// `TOPIC/state` (SPEC §14): what Home Assistant's entities read (`HomeAssistantDiscovery`'s
/// value templates), one JSON object with every key always there (null when unknown). Only what
/// changes with the kiosk's state: no uptime, so an unchanged kiosk publishes nothing.
public enum MQTTStateJSON {
    private struct State: Encodable {
        var version: String
        var state: String
        var mode: String?
        var current_index: Int?
        var current_photo: String?
        var photo_count: Int
        var screen_on: Bool
        var display_connected: Bool
        var frame_time_p99_ms: Double?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(version, forKey: .version)
            try container.encode(state, forKey: .state)
            try container.encode(mode, forKey: .mode)
            try container.encode(current_index, forKey: .current_index)
            try container.encode(current_photo, forKey: .current_photo)
            try container.encode(photo_count, forKey: .photo_count)
            try container.encode(screen_on, forKey: .screen_on)
            try container.encode(display_connected, forKey: .display_connected)
            try container.encode(frame_time_p99_ms, forKey: .frame_time_p99_ms)
        }

        enum Key: String, CodingKey {
            case version, state, mode, current_index, current_photo, photo_count, screen_on, display_connected, frame_time_p99_ms
        }
    }

    public static func render(_ snapshot: RemoteSnapshot) -> [UInt8] {
        let state = State(
            version: snapshot.version, state: snapshot.state.rawValue, mode: snapshot.mode,
            current_index: snapshot.currentIndex, current_photo: snapshot.currentFile, photo_count: snapshot.photoCount,
            screen_on: snapshot.screenOn, display_connected: snapshot.display?.connected == true,
            frame_time_p99_ms: frameTimeP99(snapshot.frameTimeBuckets).map { ($0 * 1e4).rounded() / 10 })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain strings, numbers and booleans: encoding cannot fail.
        return Array((try? encoder.encode(state)) ?? Data("{}".utf8))
    }

    /// The 99th percentile of the compose times since start, in seconds, from `/metrics`'
    /// cumulative buckets: the upper bound of the bucket it falls in (the last finite bound when it
    /// falls past them all); nil before the first frame.
    public static func frameTimeP99(_ buckets: [(bound: Double, count: Int)]) -> Double? {
        guard let total = buckets.last?.count, total > 0 else { return nil }
        // ceil(0.99 × total) without floating point: exact for any count.
        let rank = total - total / 100
        guard let bucket = buckets.first(where: { $0.count >= rank }) else { return nil }
        return bucket.bound.isFinite ? bucket.bound : buckets.last(where: { $0.bound.isFinite })?.bound
    }
}
