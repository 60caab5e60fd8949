/// The kiosk's topics under the prefix `mqtt.topic` (SPEC §14), with "%hostname%" replaced.
public struct MQTTTopics: Equatable, Sendable {
    /// "vitrine/lobby".
    public let base: String

    /// `template` is `mqtt.topic` as the config checked it; `hostname` fills "%hostname%" (a
    /// character MQTT or Home Assistant would read otherwise, a wildcard, "/" or a control
    /// character, becomes "_").
    public init(template: String, hostname: String) {
        let name = String(hostname.map { $0 == "+" || $0 == "#" || $0 == "/" || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true ? "_" : $0 })
        base = template.replacing("%hostname%", with: name.isEmpty ? "unnamed" : name)
    }

    /// Where the actions of SPEC §9 arrive, as JSON.
    public var command: String { base + "/command" }
    /// The kiosk's state, retained JSON (`MQTTStateJSON`).
    public var state: String { base + "/state" }
    /// "online", or "offline" (retained; the last will).
    public var availability: String { base + "/availability" }
    /// Why a command was refused (JSON, not retained).
    public var error: String { base + "/error" }

    public static let online = "online"
    public static let offline = "offline"

    /// The prefix as one identifier of Home Assistant's (`[A-Za-z0-9_-]`): the discovery topics'
    /// node id, the base of the unique ids, and the MQTT client id.
    public var nodeID: String {
        String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }
}
