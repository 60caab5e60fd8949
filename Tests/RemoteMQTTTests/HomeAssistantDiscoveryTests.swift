import Foundation
import RemoteControl
import Testing
@testable import RemoteMQTT

/// The discovery payloads against Home Assistant's MQTT documentation: every key is one the page
/// of its platform lists (https://www.home-assistant.io/integrations/switch.mqtt/, button.mqtt/,
/// sensor.mqtt/, "Configuration Variables"; the device's keys from the same pages' `device` map),
/// the required ones are there, and the commands are actions `/control` takes.
@Suite struct HomeAssistantDiscoveryTests {
    /// The keys every MQTT entity takes (availability, device, identity and presentation).
    static let commonKeys: Set = [
        "availability", "availability_mode", "availability_template", "availability_topic", "default_entity_id", "device",
        "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon", "json_attributes_template",
        "json_attributes_topic", "name", "object_id", "origin", "payload_available", "payload_not_available", "platform",
        "qos", "unique_id",
    ]
    static let platformKeys: [String: Set<String>] = [
        "switch": commonKeys.union(["command_template", "command_topic", "device_class", "optimistic", "payload_off",
                                    "payload_on", "retain", "state_off", "state_on", "state_topic", "value_template"]),
        "button": commonKeys.union(["command_template", "command_topic", "device_class", "payload_press", "retain"]),
        "sensor": commonKeys.union(["device_class", "expire_after", "force_update", "last_reset_value_template", "options",
                                    "state_class", "state_topic", "suggested_display_precision", "unit_of_measurement",
                                    "value_template"]),
    ]
    static let requiredKeys: [String: Set<String>] = [
        "switch": ["command_topic"], "button": ["command_topic"], "sensor": ["state_topic"],
    ]
    static let deviceKeys: Set = [
        "configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model", "model_id", "name",
        "serial_number", "suggested_area", "sw_version", "via_device",
    ]
    /// Home Assistant's sensor state classes and the duration device class's units.
    static let stateClasses: Set = ["measurement", "measurement_angle", "total", "total_increasing"]
    static let durationUnits: Set = ["d", "h", "min", "s", "ms", "µs"]

    let topics = MQTTTopics(template: "vitrine/%hostname%", hostname: "lobby.local")
    var discovery: HomeAssistantDiscovery { HomeAssistantDiscovery(topics: topics, deviceName: "lobby.local", version: "2.0") }

    func configs() throws -> [(topic: String, json: [String: Any])] {
        try discovery.messages.map { message in
            #expect(message.retain)
            return (message.topic, try #require(JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]))
        }
    }

    @Test func everyKeyIsOneHomeAssistantDocumentsForThePlatform() throws {
        for (topic, json) in try configs() {
            let component = String(topic.split(separator: "/")[1])
            let allowed = try #require(Self.platformKeys[component], "\(topic)")
            #expect(Set(json.keys).subtracting(allowed).isEmpty, "\(topic): \(Set(json.keys).subtracting(allowed).sorted())")
            #expect(Self.requiredKeys[component, default: []].isSubset(of: json.keys), "\(topic)")
            let device = try #require(json["device"] as? [String: Any])
            #expect(Set(device.keys).isSubset(of: Self.deviceKeys), "\(topic): \(device.keys.sorted())")
            if let stateClass = json["state_class"] as? String { #expect(Self.stateClasses.contains(stateClass)) }
            if json["device_class"] as? String == "duration" {
                #expect(Self.durationUnits.contains(json["unit_of_measurement"] as? String ?? ""))
            }
        }
    }

    @Test func oneDeviceWithItsEntitiesEachWithAUniqueID() throws {
        let configs = try configs()
        #expect(configs.map(\.topic) == [
            "homeassistant/switch/vitrine__lobby_2elocal/screen/config",
            "homeassistant/button/vitrine__lobby_2elocal/next/config",
            "homeassistant/button/vitrine__lobby_2elocal/previous/config",
            "homeassistant/button/vitrine__lobby_2elocal/reload/config",
            "homeassistant/sensor/vitrine__lobby_2elocal/photo_count/config",
            "homeassistant/sensor/vitrine__lobby_2elocal/current_photo/config",
            "homeassistant/sensor/vitrine__lobby_2elocal/frame_time_p99/config",
        ])
        let ids = configs.compactMap { $0.json["unique_id"] as? String }
        #expect(Set(ids).count == 7)
        for (_, json) in configs {
            let device = try #require(json["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["vitrine_vitrine__lobby_2elocal"])
            #expect(device["model"] as? String == "Vitrine" && device["sw_version"] as? String == "2.0")
            #expect(device["name"] as? String == "lobby.local")
            #expect(json["availability_topic"] as? String == "vitrine/lobby.local/availability")
            #expect(json["payload_available"] as? String == "online" && json["payload_not_available"] as? String == "offline")
        }
        let unit = try #require(configs.last?.json)
        #expect(unit["unit_of_measurement"] as? String == "ms")
        #expect(unit["value_template"] as? String == "{{ value_json.frame_time_p99_ms }}")
    }

    /// Kiosks whose topics differ have ids that differ: the discovery topics, unique ids and device
    /// identifiers of `site/a_b` and `site_a/b` (which were both `site_a_b`), and of every other
    /// pair below, never meet.
    @Test func kiosksWithDifferentTopicsNeverShareAnID() throws {
        let pairs = [("site/a_b", "site_a/b"), ("a/_b", "a_/b"), ("a.b", "a_b"), ("a.b", "a/b"), ("a_2eb", "a.b"),
                     ("a__b", "a/b"), ("a_5f", "a_"), ("kiosk é", "kiosk_c3_a9"), ("lobby", "Lobby"), ("a-b", "a_2db")]
        for (first, second) in pairs {
            let one = HomeAssistantDiscovery(topics: MQTTTopics(template: first, hostname: "x"), deviceName: "x", version: "1")
            let other = HomeAssistantDiscovery(topics: MQTTTopics(template: second, hostname: "x"), deviceName: "x", version: "1")
            #expect(Set(one.messages.map(\.topic)).isDisjoint(with: other.messages.map(\.topic)), "\(first) and \(second)")
            let ids = { (discovery: HomeAssistantDiscovery) in discovery.entities.compactMap { $0.config["unique_id"] as? String } }
            #expect(Set(ids(one)).isDisjoint(with: ids(other)), "\(first) and \(second)")
            #expect(one.topics.nodeID != other.topics.nodeID)
        }
    }

    /// The escape is injective: every prefix up to 4 characters from an alphabet of the troublesome
    /// ones (the escape character, "/", hex digits, "." and a non-ASCII letter) reads back from its
    /// id to itself, and the id keeps to Home Assistant's `[A-Za-z0-9_-]`. Stable: the same prefix
    /// gives the same id in every run (no hash seed, nothing random).
    @Test func theNodeIDReadsBackToItsPrefixAndKeepsToHomeAssistantsCharacters() throws {
        let alphabet: [String] = ["_", "/", "a", "2", "e", "f", "5", ".", "-", "é", " ", "+"]
        var prefixes: [String] = [""]
        var all: [String] = []
        for _ in 1...4 {
            prefixes = prefixes.flatMap { prefix in alphabet.map { prefix + $0 } }
            all += prefixes
        }
        var seen: [String: String] = [:]
        for prefix in all {
            let id = MQTTTopics.identifier(prefix)
            #expect(id.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || ($0 < 0x80 && Character(Unicode.Scalar($0)).isLetter) || ($0 < 0x80 && Character(Unicode.Scalar($0)).isNumber) }, "\(id)")
            #expect(Self.decode(id) == prefix, "\(prefix) -> \(id)")
            if let earlier = seen.updateValue(prefix, forKey: id) { Issue.record("\(earlier) and \(prefix) share \(id)") }
        }
        #expect(MQTTTopics(template: "vitrine/lobby.local", hostname: "x").nodeID == "vitrine__lobby_2elocal")
    }

    /// The escape read back: "__" is "/", "_" and two hex digits a byte.
    static func decode(_ id: String) -> String? {
        var bytes: [UInt8] = []
        var rest = Array(id.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "_") else {
                bytes.append(byte)
                continue
            }
            if rest.first == UInt8(ascii: "_") {
                rest.removeFirst()
                bytes.append(UInt8(ascii: "/"))
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            rest.removeFirst(2)
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A config this kiosk published under its old node id (it names this kiosk's availability
    /// topic) is one to clear; the same topic holding another kiosk's config is not, nor are this
    /// kiosk's current configs or an empty message.
    @Test func onlyThisKiosksConfigsUnderTheOldNodeIDAreCleared() throws {
        let mine = HomeAssistantDiscovery(topics: MQTTTopics(template: "site/a_b", hostname: "x"), deviceName: "x", version: "1")
        let theirs = HomeAssistantDiscovery(topics: MQTTTopics(template: "site_a/b", hostname: "x"), deviceName: "x", version: "1")
        #expect(mine.legacyConfigs == "homeassistant/+/site_a_b/+/config")
        func old(_ discovery: HomeAssistantDiscovery) -> MQTTMessage {
            let config = ["availability_topic": discovery.topics.availability, "unique_id": "site_a_b_screen"]
            return MQTTMessage(topic: "homeassistant/switch/site_a_b/screen/config",
                               payload: Array(try! JSONSerialization.data(withJSONObject: config)), retain: true)
        }
        #expect(mine.isLegacyConfig(old(mine)))
        #expect(!mine.isLegacyConfig(old(theirs)))
        #expect(theirs.isLegacyConfig(old(theirs)))
        #expect(!mine.isLegacyConfig(MQTTMessage(topic: old(mine).topic, payload: [], retain: true)))
        #expect(mine.messages.allSatisfy { !mine.isLegacyConfig($0) })
        // An id that did not change has nothing to clear.
        #expect(HomeAssistantDiscovery(topics: MQTTTopics(template: "kiosk-12", hostname: "x"), deviceName: "x", version: "1").legacyConfigs == nil)
    }

    /// The switch's and buttons' payloads are actions `/control` takes, and the switch's value
    /// template reads a key `TOPIC/state` has.
    @Test func theCommandsAreControlActionsAndTheStateKeysExist() throws {
        let configs = try configs()
        let screen = try #require(configs.first { $0.topic.contains("/switch/") }?.json)
        #expect(screen["command_topic"] as? String == "vitrine/lobby.local/command")
        #expect(screen["state_topic"] as? String == "vitrine/lobby.local/state")
        func action(_ payload: Any?) throws -> RemoteAction {
            let text = try #require(payload as? String)
            return try RemoteAction.parse(json: Array(text.utf8), photoCount: 1).get()
        }
        #expect(try action(screen["payload_on"]) == .screenOn)
        #expect(try action(screen["payload_off"]) == .screenOff)
        #expect(screen["state_on"] as? String == "ON" && screen["state_off"] as? String == "OFF")
        let buttons = configs.filter { $0.topic.contains("/button/") }
        #expect(try buttons.map { try action($0.json["payload_press"]) } == [.next, .previous, .reload])
        let stateKeys = try #require(JSONSerialization.jsonObject(with: Data(MQTTStateJSON.render(RemoteSnapshot(version: "1")))) as? [String: Any]).keys
        for (topic, json) in configs {
            guard let template = json["value_template"] as? String else { continue }
            let match = try #require(template.firstMatch(of: try Regex(#"value_json\.([a-z0-9_]+)"#)), "\(topic)")
            let key = String(match[1].substring ?? "")
            #expect(stateKeys.contains(key), "\(topic) reads \(key)")
        }
    }
}
