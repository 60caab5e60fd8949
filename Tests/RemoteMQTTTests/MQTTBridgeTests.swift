import Foundation
import RemoteControl
import Synchronization
import TestSupport
import Testing
@testable import RemoteMQTT

/// The bridge against a fake connection, in virtual time: what a (re)connect publishes, the state
/// at most once a second and only when it changed, commands through `/control`'s checks, and
/// refusals answered on TOPIC/error and never acted on.
@Suite struct MQTTBridgeTests {
    final class VirtualClock: Sendable {
        let seconds = Mutex(100.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        var now: Double { seconds.withLock { $0 } }
    }

    struct Kiosk {
        let state = RemoteState(version: "1.2.3", wake: {})
        let connection = FakeMQTTConnection()
        let clock = VirtualClock()
        let log = LogRecorder()
        let topics = MQTTTopics(template: "vitrine/%hostname%", hostname: "lobby")
        let bridge: MQTTBridge

        init(homeAssistant: Bool = true) {
            let (connection, clock, topics) = (self.connection, self.clock, self.topics)
            var snapshot = RemoteSnapshot(version: "1.2.3")
            snapshot.state = .showing
            snapshot.mode = "grid"
            snapshot.photoCount = 5
            snapshot.screenOn = true
            snapshot.display = .init(connector: "Virtual-1", mode: "1024x768@60", connected: true)
            state.publish(snapshot)
            bridge = MQTTBridge(
                topics: topics,
                discovery: homeAssistant ? HomeAssistantDiscovery(topics: topics, deviceName: "lobby", version: "1.2.3") : nil,
                state: state, connection: connection, closeConnection: { connection.close() }, logger: log.logger,
                clock: { clock.now })
        }

        func change(_ body: (inout RemoteSnapshot) -> Void) {
            var snapshot = state.currentSnapshot()
            body(&snapshot)
            state.publish(snapshot)
        }

        func tick(after seconds: Double) {
            clock.advance(seconds)
            bridge.tick(now: clock.now)
        }

        func command(_ text: String, retain: Bool = false) {
            bridge.received(MQTTMessage(topic: topics.command, text: text, retain: retain), on: connection)
        }

        func stateJSON(_ message: MQTTMessage) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
        }

        func errors() throws -> [[String: String]] {
            try connection.published(on: topics.error).map {
                try #require(JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: String])
            }
        }
    }

    @Test func aConnectSubscribesAndPublishesAvailabilityDiscoveryAndState() throws {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        #expect(kiosk.connection.subscribed == ["vitrine/lobby/command", "homeassistant/+/vitrine_lobby/+/config"])
        let published = kiosk.connection.published
        #expect(published.first == MQTTMessage(topic: "vitrine/lobby/availability", text: "online", retain: true))
        let configs = published.filter { $0.topic.hasPrefix("homeassistant/") }
        #expect(configs.count == 7 && configs.allSatisfy(\.retain))
        let state = try #require(published.last)
        #expect(state.topic == "vitrine/lobby/state" && state.retain)
        let json = try kiosk.stateJSON(state)
        #expect(json["photo_count"] as? Int == 5)
        #expect(json["screen_on"] as? Bool == true)
        #expect(json["display_connected"] as? Bool == true)
        #expect(json["mode"] as? String == "grid")
        #expect(json["version"] as? String == "1.2.3")
        #expect(json["current_index"] is NSNull && json["current_photo"] is NSNull)
    }

    /// The retained configs under the node id of before the escape are cleared when they are this
    /// kiosk's, and left when another kiosk's (whose old id was the same) are there.
    @Test func theOldNodeIDsConfigsOfThisKioskAreClearedAndNoOtherKiosks() throws {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        kiosk.connection.clear()
        func config(availability: String) -> MQTTMessage {
            MQTTMessage(topic: "homeassistant/switch/vitrine_lobby/screen/config",
                        payload: Array(try! JSONSerialization.data(withJSONObject: ["availability_topic": availability])), retain: true)
        }
        kiosk.bridge.received(config(availability: "vitrine_lobby/availability"), on: kiosk.connection)
        #expect(kiosk.connection.published.isEmpty)
        kiosk.bridge.received(config(availability: "vitrine/lobby/availability"), on: kiosk.connection)
        #expect(kiosk.connection.published == [MQTTMessage(topic: "homeassistant/switch/vitrine_lobby/screen/config", payload: [], retain: true)])
        #expect(kiosk.log.messages.contains { $0.text.contains("cleared the Home Assistant config homeassistant/switch/vitrine_lobby/screen/config") })
    }

    @Test func withoutHomeAssistantNoDiscoveryIsPublished() {
        let kiosk = Kiosk(homeAssistant: false)
        kiosk.bridge.connected(kiosk.connection)
        #expect(!kiosk.connection.published.contains { $0.topic.hasPrefix("homeassistant/") })
        #expect(kiosk.connection.published.map(\.topic) == ["vitrine/lobby/availability", "vitrine/lobby/state"])
    }

    @Test func theStateIsPublishedWhenItChangesAtMostOnceASecond() throws {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        kiosk.connection.clear()
        kiosk.tick(after: 0.25)
        #expect(kiosk.connection.published.isEmpty, "nothing changed")
        kiosk.change { $0.mode = "pager"; $0.currentIndex = 2; $0.currentFile = "c.jpg" }
        kiosk.tick(after: 0.25)
        #expect(kiosk.connection.published.isEmpty, "0.5 s after the last state")
        kiosk.tick(after: 0.25)
        #expect(kiosk.connection.published.isEmpty, "0.75 s after the last state")
        kiosk.tick(after: 0.25)
        let state = try #require(kiosk.connection.published(on: kiosk.topics.state).last)
        #expect(kiosk.connection.published.count == 1)
        let json = try kiosk.stateJSON(state)
        #expect(json["current_index"] as? Int == 2 && json["current_photo"] as? String == "c.jpg" && json["mode"] as? String == "pager")
        // Many changes within a second: one message, the last state.
        kiosk.change { $0.currentIndex = 3 }
        kiosk.tick(after: 0.25)
        kiosk.change { $0.currentIndex = 4 }
        kiosk.tick(after: 0.25)
        kiosk.change { $0.screenOn = false }
        kiosk.tick(after: 0.5)
        kiosk.tick(after: 5)
        let states = kiosk.connection.published(on: kiosk.topics.state)
        #expect(states.count == 2)
        let last = try kiosk.stateJSON(try #require(states.last))
        #expect(last["current_index"] as? Int == 4 && last["screen_on"] as? Bool == false)
    }

    @Test func whatCouldNotBeQueuedIsPublishedAfterTheReconnect() throws {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        kiosk.bridge.disconnected(kiosk.connection, reason: "connection lost")
        kiosk.connection.setAccepting(false)
        kiosk.connection.clear()
        kiosk.change { $0.photoCount = 9 }
        kiosk.tick(after: 2)
        #expect(kiosk.connection.published.isEmpty)
        kiosk.connection.setAccepting(true)
        kiosk.tick(after: 2)
        #expect(kiosk.connection.published.isEmpty, "not connected: waits for the connect")
        kiosk.bridge.connected(kiosk.connection)
        #expect(kiosk.connection.subscribed.count == 4, "subscribed again (commands and the old discovery configs)")
        let state = try kiosk.stateJSON(try #require(kiosk.connection.published(on: kiosk.topics.state).last))
        #expect(state["photo_count"] as? Int == 9)
        #expect(kiosk.connection.published(on: kiosk.topics.availability).map(\.payload) == [Array("online".utf8)])
    }

    @Test func aCommandIsTakenAsPostControlTakesIt() throws {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        kiosk.command(HomeAssistantDiscovery.command("screen_off"))
        kiosk.command(#"{"action": "open", "index": 4}"#)
        #expect(kiosk.state.takeActions() == [.screenOff, .open(4)])
        #expect(try kiosk.errors().isEmpty)
        // Another topic is not a command.
        kiosk.bridge.received(MQTTMessage(topic: "vitrine/lobby/state", text: #"{"action": "next"}"#), on: kiosk.connection)
        #expect(kiosk.state.takeActions().isEmpty)
    }

    @Test func aBadCommandIsAnsweredOnTheErrorTopicAndNeverActedOn() throws {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        kiosk.command("garbage \u{1}\u{2}")
        kiosk.command(#"{"action": "open", "index": 5}"#)
        kiosk.command(#"{"action": "explode"}"#)
        kiosk.command(String(repeating: "x", count: 5000))
        kiosk.command(#"{"action": "next"}"#, retain: true)
        #expect(kiosk.state.takeActions().isEmpty)
        let errors = try kiosk.errors()
        #expect(errors.map { $0["error"] ?? "" } == [
            "the body is not a JSON object {\"action\": ..., \"index\": N}",
            "\"index\" 5 is out of range: 5 photos, 0...4",
            "unknown action \"explode\": one of next, previous, open, close, screen_off, screen_on, reload",
            "the command is 5000 bytes; at most 4096",
            "a retained command is not taken (it would act again at each reconnect); publish it without retain",
        ])
        #expect(errors[0]["command"] == "garbage \u{1}\u{2}")
        #expect(errors[3]["command"] == String(repeating: "x", count: 200), "the first 200 bytes")
        #expect(kiosk.connection.published(on: kiosk.topics.error).allSatisfy { !$0.retain })
        // Logged once within the second, the rest counted in the next line.
        #expect(kiosk.log.messages.filter { $0.text.hasPrefix("mqtt: command refused") }.count == 1)
        kiosk.clock.advance(1)
        kiosk.command("{}")
        let lines = kiosk.log.messages.map(\.text).filter { $0.hasPrefix("mqtt: command refused") }
        #expect(lines.last == "mqtt: command refused: the body has no \"action\" (4 more refused before it)")
    }

    @Test func whileWaitingForADisplayScreenCommandsAreRefusedAndReloadTaken() throws {
        let kiosk = Kiosk()
        kiosk.change { $0.state = .waitingForDisplay; $0.display = nil }
        kiosk.bridge.connected(kiosk.connection)
        kiosk.command(HomeAssistantDiscovery.command("screen_on"))
        kiosk.command(HomeAssistantDiscovery.command("reload"))
        #expect(kiosk.state.takeActions() == [.reload])
        #expect(try kiosk.errors().map { $0["error"] } == ["not taken: screen_on has nothing to act on while the kiosk waits for a display"])
    }

    @Test func stopSaysOfflineAndClosesTheConnection() {
        let kiosk = Kiosk()
        kiosk.bridge.connected(kiosk.connection)
        kiosk.bridge.startTimer()
        kiosk.bridge.stop()
        #expect(kiosk.connection.published.last == MQTTMessage(topic: "vitrine/lobby/availability", text: "offline", retain: true))
        #expect(kiosk.connection.closed == 1)
    }

    @Test func theTimerThreadPublishesAChangeWithinASecond() async throws {
        let connection = FakeMQTTConnection()
        let state = RemoteState(version: "1", wake: {})
        let bridge = MQTTBridge(topics: MQTTTopics(template: "t", hostname: "h"), discovery: nil, state: state,
                                connection: connection, closeConnection: {}, logger: LogRecorder().logger)
        bridge.connected(connection)
        bridge.startTimer()
        defer { bridge.stop() }
        var snapshot = state.currentSnapshot()
        snapshot.photoCount = 42
        state.publish(snapshot)
        for _ in 0..<40 where !connection.published(on: "t/state").contains(where: { String(decoding: $0.payload, as: UTF8.self).contains("\"photo_count\":42") }) {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(connection.published(on: "t/state").count == 2)
    }
}
