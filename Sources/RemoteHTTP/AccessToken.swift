import Linux

/// The bearer token of `/screenshot` and `/control` (`remote.token_file`). Read for each request
/// that needs it, so a token written or rotated later counts without a restart; without a readable,
/// non-empty file those endpoints are off and say why.
public enum AccessToken {
    public enum Loaded: Equatable {
        case token([UInt8])
        /// Why the protected endpoints are off.
        case off(String)
    }

    /// The file's content without surrounding whitespace (the newline an editor adds).
    public static func load(path: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: 4096)
        } catch {
            return .off("cannot read the token file (remote.token_file): \(error)")
        }
        let token = Array(bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        guard !token.isEmpty else { return .off("the token file \(LogLine.escaped(path)) (remote.token_file) is empty") }
        return .token(token)
    }

    /// True when `authorization` is "Bearer TOKEN" with this token. The scheme is case-insensitive
    /// (RFC 9110); the token is compared in constant time.
    public static func authorizes(_ authorization: String?, token: [UInt8]) -> Bool {
        guard let authorization else { return false }
        let bytes = Array(authorization.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count,
              zip(bytes.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 || ($0 == $1) }) else { return false }
        return constantTimeEqual(Array(bytes.dropFirst(scheme.count)), token)
    }

    /// Looks at every byte of `given` whatever matches, so the time taken tells nothing about how
    /// much of a guess was right (only, at most, its length).
    public static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt64(truncatingIfNeeded: given.count ^ expected.count)
        for index in given.indices {
            let other = expected.isEmpty ? 0 : expected[index % expected.count]
            difference |= UInt64(given[index] ^ other)
        }
        return difference == 0 && !expected.isEmpty
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
