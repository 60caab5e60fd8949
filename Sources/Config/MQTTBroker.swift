/// Where the MQTT broker is (`mqtt.broker`, SPEC §14): "mqtt://HOST[:PORT]" (1883 by default) or
/// "mqtts://HOST[:PORT]" (TLS, 8883 by default). Parsed once, when the config is read, so a
/// malformed URL is a config error with its line rather than a connection failure at run time.
/// Credentials have their own keys (`username`, `password_file`): never in the URL, which is
/// logged.
public struct MQTTBroker: Equatable, Sendable, CustomStringConvertible {
    /// A host name, an IPv4 address or an IPv6 address (without its brackets).
    public var host: String
    public var port: Int
    /// mqtts://: TLS, checked against the system's CA store.
    public var tls: Bool

    public static let defaultPort = 1883
    public static let defaultTLSPort = 8883

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// nil unless `text` is a broker URL as above: the scheme in lower case, a host of letters,
    /// digits, '-' and '.' (at most 253) or a bracketed IPv6 address, an optional port 1...65535,
    /// and nothing after but an optional "/".
    public init?(_ text: String) {
        let tls: Bool
        var rest: Substring
        if text.hasPrefix("mqtt://") {
            (tls, rest) = (false, text.dropFirst("mqtt://".count))
        } else if text.hasPrefix("mqtts://") {
            (tls, rest) = (true, text.dropFirst("mqtts://".count))
        } else {
            return nil
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let hostPart: Substring
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
            guard Self.isIPv6(hostPart) else { return nil }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                hostPart = rest[..<colon]
                portPart = rest[rest.index(after: colon)...]
            } else {
                hostPart = rest
            }
            guard Self.isHostName(hostPart) else { return nil }
        }
        var port = tls ? Self.defaultTLSPort : Self.defaultPort
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portPart), (1...65535).contains(value) else { return nil }
            port = value
        }
        self.init(host: String(hostPart), port: port, tls: tls)
    }

    /// As it is written in the config, with its port.
    public var description: String {
        let host = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(host):\(port)"
    }

    private static func isHostName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 253 && !text.hasPrefix(".") && !text.hasPrefix("-")
            && !text.contains("..")
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    private static func isIPv6(_ text: Substring) -> Bool {
        text.contains(":") && text.count <= 45
            && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            && !text.contains(":::") && text.ranges(of: "::").count <= 1
    }
}
