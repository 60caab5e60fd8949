import Foundation
import RemoteControl
import Testing

@Suite struct StatusJSONTests {
    private func decode(_ snapshot: RemoteSnapshot) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(StatusJSON.render(snapshot))) as? [String: Any])
    }

    @Test func showingAPhoto() throws {
        var snapshot = RemoteSnapshot(version: "0.10.0")
        snapshot.state = .showing
        snapshot.mode = "pager"
        snapshot.currentIndex = 2
        snapshot.currentFile = "03-dragonfly.jpg"
        snapshot.photoCount = 6
        snapshot.screenOn = true
        snapshot.display = .init(connector: "HDMI-A-1", mode: "1280x800@60", connected: true)
        snapshot.inputDevices = ["/dev/input/event3: touch \"ILITEK\""]
        snapshot.uptime = 61.23456
        let status = try decode(snapshot)
        #expect(status["version"] as? String == "0.10.0")
        #expect(status["state"] as? String == "showing")
        #expect(status["waiting_for_display"] as? Bool == false)
        #expect(status["mode"] as? String == "pager")
        let photo = try #require(status["current_photo"] as? [String: Any])
        #expect(photo["index"] as? Int == 2)
        #expect(photo["file"] as? String == "03-dragonfly.jpg")
        #expect(status["photo_count"] as? Int == 6)
        #expect(status["screen_on"] as? Bool == true)
        let display = try #require(status["display"] as? [String: Any])
        #expect(display["connector"] as? String == "HDMI-A-1")
        #expect(display["mode"] as? String == "1280x800@60")
        #expect(display["connected"] as? Bool == true)
        #expect(status["input_devices"] as? [String] == ["/dev/input/event3: touch \"ILITEK\""])
        #expect(status["uptime_seconds"] as? Double == 61.235)
        #expect(status["clip"] is NSNull)
    }

    @Test func aClipOnScreenSaysWhetherItPlays() throws {
        var snapshot = RemoteSnapshot(version: "0.10.0")
        snapshot.currentIndex = 4
        snapshot.currentClip = .init(kind: "clip", playing: true)
        let clip = try #require(try decode(snapshot)["clip"] as? [String: Any])
        #expect(clip["kind"] as? String == "clip" && clip["playing"] as? Bool == true)
    }

    @Test func waitingForADisplaySaysSoWithEveryKeyPresent() throws {
        var snapshot = RemoteSnapshot(version: "0.10.0")
        snapshot.state = .waitingForDisplay
        snapshot.stateDetail = "no DRM device in /dev/dri"
        let status = try decode(snapshot)
        #expect(status["state"] as? String == "waiting_for_display")
        #expect(status["waiting_for_display"] as? Bool == true)
        #expect(status["state_detail"] as? String == "no DRM device in /dev/dri")
        #expect(status["display"] is NSNull)
        #expect(status["current_photo"] is NSNull)
        #expect(status["mode"] is NSNull)
        #expect(status["clip"] is NSNull)
        #expect(status.count == 12)
    }
}
