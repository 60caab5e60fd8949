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
    /// node id, the base of the unique ids, and the MQTT client id. An escape that no two prefixes
    /// share (two kiosks' ids must never meet, or Home Assistant takes one kiosk's entities for the
    /// other's): letters, digits and "-" stay, "/" is "__", and every other byte of the UTF-8 is
    /// "_" and its two hex digits ("vitrine/lobby.local" is "vitrine__lobby_2elocal"). After "_"
    /// comes either "_" or a hex digit, so the id reads back to the one prefix it came from.
    public var nodeID: String { Self.identifier(base) }

    /// The node id of Vitrine before the escape: the prefix with every other character as "_",
    /// which `site/a_b` and `site_a/b` shared. The bridge clears the retained discovery configs
    /// this kiosk published under it.
    public var legacyNodeID: String {
        String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }

    static func identifier(_ text: String) -> String {
        var id = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                id.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/"):
                id += "__"
            default:
                id += "_" + String(Self.hexDigits[Int(byte >> 4)]) + String(Self.hexDigits[Int(byte & 15)])
            }
        }
        return id
    }

    private static let hexDigits = Array("0123456789abcdef")
}
