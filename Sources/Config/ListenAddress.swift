/// Where the remote server listens (`remote.listen`, SPEC §9): "127.0.0.1:9180", "[::]:9180",
/// "localhost:9180". Parsed once, when the config is read, so a malformed address is a config error
/// with its line rather than a bind failure at run time.
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    /// An IPv4 address, an IPv6 address (without its brackets) or "localhost".
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// nil unless `text` is HOST:PORT with HOST an IPv4 address, a bracketed IPv6 address or
    /// "localhost", and PORT 1...65535 in plain decimal digits.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let hostPart = text[..<colon]
        guard let port = Self.port(text[text.index(after: colon)...]) else { return nil }
        if hostPart.hasPrefix("["), hostPart.hasSuffix("]"), hostPart.count > 2 {
            let inner = hostPart.dropFirst().dropLast()
            guard Self.isIPv6(inner) else { return nil }
            host = String(inner)
        } else if hostPart == "localhost" || Self.isIPv4(hostPart) {
            host = String(hostPart)
        } else {
            return nil
        }
        self.port = port
    }

    public var isIPv6: Bool { host.contains(":") }

    /// As it is written in the config.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func port(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(text), (1...65535).contains(value) else { return nil }
        return value
    }

    private static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
        }
    }

    /// The characters and shape of an IPv6 address ("::", "fe80::1", "::ffff:192.0.2.1"); the
    /// kernel has the last word when binding.
    private static func isIPv6(_ text: Substring) -> Bool {
        text.contains(":") && text.count <= 45
            && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            && !text.contains(":::")
            && text.ranges(of: "::").count <= 1
    }
}
