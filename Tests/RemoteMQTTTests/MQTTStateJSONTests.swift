import Foundation
import RemoteControl
import TestSupport
import Testing
@testable import RemoteMQTT

@Suite struct MQTTStateJSONTests {
    @Test func everyKeyIsAlwaysThere() {
        let text = String(decoding: MQTTStateJSON.render(RemoteSnapshot(version: "1")), as: UTF8.self)
        #expect(text == #"{"current_index":null,"current_photo":null,"display_connected":false,"frame_time_p99_ms":null,"#
            + #""mode":null,"photo_count":0,"screen_on":false,"state":"starting","version":"1"}"#)
    }

    @Test func theP99IsTheBoundOfItsBucket() {
        #expect(MQTTStateJSON.frameTimeP99([]) == nil)
        #expect(MQTTStateJSON.frameTimeP99([(0.005, 0), (0.01, 0), (.infinity, 0)]) == nil)
        // 100 frames: the 99th is in the 10 ms bucket.
        #expect(MQTTStateJSON.frameTimeP99([(0.005, 90), (0.01, 99), (0.025, 100), (.infinity, 100)]) == 0.01)
        #expect(MQTTStateJSON.frameTimeP99([(0.005, 90), (0.01, 98), (0.025, 100), (.infinity, 100)]) == 0.025)
        // Past every bound: the last finite one.
        #expect(MQTTStateJSON.frameTimeP99([(0.005, 0), (0.01, 0), (.infinity, 3)]) == 0.01)
        var snapshot = RemoteSnapshot(version: "1")
        snapshot.frameTimeBuckets = [(0.0025, 1), (.infinity, 1)]
        #expect(String(decoding: MQTTStateJSON.render(snapshot), as: UTF8.self).contains(#""frame_time_p99_ms":2.5"#))
    }
}

@Suite struct MQTTTopicsTests {
    @Test func theHostNameFillsThePlaceholder() {
        let topics = MQTTTopics(template: "vitrine/%hostname%", hostname: "lobby")
        #expect(topics.base == "vitrine/lobby")
        #expect([topics.command, topics.state, topics.availability, topics.error]
            == ["vitrine/lobby/command", "vitrine/lobby/state", "vitrine/lobby/availability", "vitrine/lobby/error"])
        #expect(topics.nodeID == "vitrine__lobby")
        #expect(MQTTTopics(template: "kiosks/a", hostname: "x").base == "kiosks/a")
        #expect(MQTTTopics(template: "v/%hostname%", hostname: "a+b#c/d").base == "v/a_b_c_d")
        #expect(MQTTTopics(template: "v/%hostname%", hostname: "").base == "v/unnamed")
    }
}

@Suite struct MQTTPasswordTests {
    func load(_ bytes: [UInt8]) throws -> MQTTPassword.Loaded {
        let folder = try TemporaryDirectory("mqtt-password")
        defer { folder.remove() }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("password")))
        return MQTTPassword.load(path: folder.file("password"))
    }

    @Test func thePasswordAloneWithoutItsNewlineOrByteOrderMark() throws {
        #expect(try load(Array("s3cret pass\n".utf8)) == .password("s3cret pass"))
        #expect(try load([0xEF, 0xBB, 0xBF] + Array("p\r\n".utf8)) == .password("p"))
    }

    @Test func aFileThatIsNotOnePasswordSaysWhyNeverWhat() throws {
        guard case .unusable(let empty) = try load(Array(" \n".utf8)) else { Issue.record("taken"); return }
        #expect(empty.hasSuffix("(mqtt.password_file) is empty"))
        guard case .unusable(let lines) = try load(Array("one\ntwo".utf8)) else { Issue.record("taken"); return }
        #expect(lines.contains("more than one line") && !lines.contains("one\ntwo"))
        guard case .unusable(let binary) = try load([0x61, 0xFF]) else { Issue.record("taken"); return }
        #expect(binary.hasSuffix("is not UTF-8 text"))
        guard case .unusable(let missing) = MQTTPassword.load(path: "/nonexistent/vitrine.password") else { Issue.record("taken"); return }
        #expect(missing.hasPrefix("cannot read the password file (mqtt.password_file): "))
        guard case .unusable(let large) = try load(Array(repeating: 0x61, count: 5000)) else { Issue.record("taken"); return }
        #expect(large.hasSuffix("file too large: 5000 bytes (4.9 KB), the limit is 4096 bytes (4 KB)"), "\(large)")
    }
}
