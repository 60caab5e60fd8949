import Foundation

/// Home Assistant's MQTT discovery config for one kiosk (SPEC §14): one device with a screen
/// switch, next/previous/reload buttons and sensors for the photo count, the current photo and the
/// frame time's p99. Each entity is a retained message on
/// `homeassistant/COMPONENT/NODE/OBJECT/config`; its commands are the JSON actions of
/// `TOPIC/command` and its state is read from `TOPIC/state` (`MQTTStateJSON`) by a value template.
/// Only keys Home Assistant's documentation lists for the platform are used
/// (`HomeAssistantDiscoveryTests` hold them to it).
public struct HomeAssistantDiscovery: Sendable {
    public static let prefix = "homeassistant"

    /// One entity's config: `component` is Home Assistant's platform ("switch", "button", "sensor").
    public struct Entity: Sendable {
        public var component: String
        public var objectID: String
        /// JSON values (strings, numbers, booleans, nested dictionaries and arrays).
        public var config: [String: any Sendable]
    }

    public let topics: MQTTTopics
    public let entities: [Entity]

    /// `deviceName` is how Home Assistant names the device (the host's name); `version` its
    /// software version.
    public init(topics: MQTTTopics, deviceName: String, version: String) {
        self.topics = topics
        let node = topics.nodeID
        let device: [String: any Sendable] = [
            "identifiers": ["vitrine_" + node],
            "name": deviceName,
            "manufacturer": "Vitrine",
            "model": "Vitrine",
            "sw_version": version,
        ]
        func entity(_ component: String, _ objectID: String, _ name: String, icon: String,
                    _ specific: [String: any Sendable]) -> Entity {
            var config: [String: any Sendable] = [
                "name": name,
                "unique_id": "\(node)_\(objectID)",
                "icon": icon,
                "availability_topic": topics.availability,
                "payload_available": MQTTTopics.online,
                "payload_not_available": MQTTTopics.offline,
                "device": device,
                "qos": 1,
            ]
            config.merge(specific) { _, new in new }
            return Entity(component: component, objectID: objectID, config: config)
        }
        func press(_ action: String) -> [String: any Sendable] {
            ["command_topic": topics.command, "payload_press": Self.command(action)]
        }
        let state = topics.state
        entities = [
            entity("switch", "screen", "Screen", icon: "mdi:monitor", [
                "command_topic": topics.command,
                "payload_on": Self.command("screen_on"),
                "payload_off": Self.command("screen_off"),
                "state_topic": state,
                "value_template": "{{ 'ON' if value_json.screen_on else 'OFF' }}",
                // Compared with the template's result; they default to payload_on/off, the commands.
                "state_on": "ON",
                "state_off": "OFF",
            ]),
            entity("button", "next", "Next photo", icon: "mdi:skip-next", press("next")),
            entity("button", "previous", "Previous photo", icon: "mdi:skip-previous", press("previous")),
            entity("button", "reload", "Reload", icon: "mdi:refresh", press("reload")),
            entity("sensor", "photo_count", "Photos", icon: "mdi:image-multiple", [
                "state_topic": state,
                "value_template": "{{ value_json.photo_count }}",
                "unit_of_measurement": "photos",
                "state_class": "measurement",
            ]),
            // null (no photo open) renders as "None", which Home Assistant shows as unknown.
            entity("sensor", "current_photo", "Current photo", icon: "mdi:image", [
                "state_topic": state,
                "value_template": "{{ value_json.current_photo }}",
            ]),
            entity("sensor", "frame_time_p99", "Frame time p99", icon: "mdi:timer-outline", [
                "state_topic": state,
                "value_template": "{{ value_json.frame_time_p99_ms }}",
                "unit_of_measurement": "ms",
                "device_class": "duration",
                "state_class": "measurement",
                "suggested_display_precision": 1,
                "entity_category": "diagnostic",
            ]),
        ]
    }

    /// An action's JSON as `TOPIC/command` takes it.
    public static func command(_ action: String) -> String { "{\"action\":\"\(action)\"}" }

    public static func topic(_ entity: Entity, node: String) -> String {
        "\(prefix)/\(entity.component)/\(node)/\(entity.objectID)/config"
    }

    /// Where Vitrine published the configs before node ids were escaped (`MQTTTopics.legacyNodeID`);
    /// nil when this kiosk's id did not change. The bridge subscribes to it and clears the configs
    /// that are this kiosk's (`isLegacyConfig`), so Home Assistant does not keep a second device.
    public var legacyConfigs: String? {
        topics.legacyNodeID == topics.nodeID ? nil : "\(Self.prefix)/+/\(topics.legacyNodeID)/+/config"
    }

    /// Whether `message` is a retained config under `legacyConfigs` that this kiosk published: it
    /// names this kiosk's availability topic. Another kiosk whose old id was the same (`site/a_b`
    /// and `site_a/b`) names its own, and its config is left to it.
    public func isLegacyConfig(_ message: MQTTMessage) -> Bool {
        let parts = message.topic.split(separator: "/", omittingEmptySubsequences: false)
        guard legacyConfigs != nil, message.retain, !message.payload.isEmpty, parts.count == 5,
              parts[0] == Self.prefix, parts[2] == topics.legacyNodeID, parts[4] == "config",
              let json = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any] else { return false }
        return json["availability_topic"] as? String == topics.availability
    }

    /// The retained config messages, one per entity.
    public var messages: [MQTTMessage] {
        entities.map { entity in
            // Dictionaries of strings, numbers and booleans: serialisation cannot fail.
            let json = (try? JSONSerialization.data(withJSONObject: entity.config, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            return MQTTMessage(topic: Self.topic(entity, node: topics.nodeID), payload: Array(json), retain: true)
        }
    }
}
