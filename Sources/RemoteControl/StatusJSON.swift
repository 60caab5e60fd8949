import Foundation

/// `GET /status`: the snapshot as one JSON object (SPEC §9), keys in snake case.
public enum StatusJSON {
    private struct Status: Encodable {
        struct Photo: Encodable {
            var index: Int
            var file: String?
        }

        var version: String
        var state: String
        var state_detail: String?
        var waiting_for_display: Bool
        var mode: String?
        var current_photo: Photo?
        var clip: RemoteSnapshot.Clip?
        var photo_count: Int
        var screen_on: Bool
        var display: RemoteSnapshot.Display?
        var input_devices: [String]
        var uptime_seconds: Double

        // Nil fields are written as null, so every key is always there.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(version, forKey: .version)
            try container.encode(state, forKey: .state)
            try container.encode(state_detail, forKey: .state_detail)
            try container.encode(waiting_for_display, forKey: .waiting_for_display)
            try container.encode(mode, forKey: .mode)
            try container.encode(current_photo, forKey: .current_photo)
            try container.encode(clip, forKey: .clip)
            try container.encode(photo_count, forKey: .photo_count)
            try container.encode(screen_on, forKey: .screen_on)
            try container.encode(display, forKey: .display)
            try container.encode(input_devices, forKey: .input_devices)
            try container.encode(uptime_seconds, forKey: .uptime_seconds)
        }

        enum Key: String, CodingKey {
            case version, state, state_detail, waiting_for_display, mode, current_photo, clip, photo_count, screen_on, display,
                 input_devices, uptime_seconds
        }
    }

    public static func render(_ snapshot: RemoteSnapshot) -> [UInt8] {
        let status = Status(
            version: snapshot.version, state: snapshot.state.rawValue, state_detail: snapshot.stateDetail,
            waiting_for_display: snapshot.state == .waitingForDisplay, mode: snapshot.mode,
            current_photo: snapshot.currentIndex.map { Status.Photo(index: $0, file: snapshot.currentFile) },
            clip: snapshot.currentClip,
            photo_count: snapshot.photoCount, screen_on: snapshot.screenOn,
            display: snapshot.display,
            input_devices: snapshot.inputDevices, uptime_seconds: (snapshot.uptime * 1000).rounded() / 1000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain strings, numbers and booleans: encoding cannot fail.
        return Array((try? encoder.encode(status)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }
}
