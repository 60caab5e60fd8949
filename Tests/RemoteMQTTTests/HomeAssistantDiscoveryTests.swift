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
            "homeassistant/switch/vitrine_lobby_local/screen/config",
            "homeassistant/button/vitrine_lobby_local/next/config",
            "homeassistant/button/vitrine_lobby_local/previous/config",
            "homeassistant/button/vitrine_lobby_local/reload/config",
            "homeassistant/sensor/vitrine_lobby_local/photo_count/config",
            "homeassistant/sensor/vitrine_lobby_local/current_photo/config",
            "homeassistant/sensor/vitrine_lobby_local/frame_time_p99/config",
        ])
        let ids = configs.compactMap { $0.json["unique_id"] as? String }
        #expect(Set(ids).count == 7)
        for (_, json) in configs {
            let device = try #require(json["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["vitrine_vitrine_lobby_local"])
            #expect(device["model"] as? String == "Vitrine" && device["sw_version"] as? String == "2.0")
            #expect(device["name"] as? String == "lobby.local")
            #expect(json["availability_topic"] as? String == "vitrine/lobby.local/availability")
            #expect(json["payload_available"] as? String == "online" && json["payload_not_available"] as? String == "offline")
        }
        let unit = try #require(configs.last?.json)
        #expect(unit["unit_of_measurement"] as? String == "ms")
        #expect(unit["value_template"] as? String == "{{ value_json.frame_time_p99_ms }}")
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
