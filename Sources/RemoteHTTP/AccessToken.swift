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

    /// The file's content without a UTF-8 byte order mark (a Windows editor's) and surrounding
    /// whitespace (the newline an editor adds). A file that is not one token is refused with why,
    /// never with the token: a second line, white space or a control character inside, or nothing
    /// at all; such a file would otherwise answer every request "wrong token".
    public static func load(path: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: 4096)
        } catch {
            return .off("cannot read the token file (remote.token_file): \(error)")
        }
        let file = "the token file \(LogLine.escaped(path)) (remote.token_file)"
        var content = bytes[...]
        if content.starts(with: byteOrderMark) { content = content.dropFirst(byteOrderMark.count) }
        let token = Array(content.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        guard !token.isEmpty else { return .off("\(file) is empty") }
        if token.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            return .off("\(file) has more than one line; it must hold the token alone, on one line")
        }
        if token.contains(where: { $0 == 0x20 || $0 == 0x09 }) {
            return .off("\(file) has white space inside the token; it must hold the token alone, on one line")
        }
        if token.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return .off("\(file) has a control character in the token, which no Authorization header can carry")
        }
        if containsByteOrderMark(token) {
            return .off("\(file) has a byte order mark (U+FEFF) inside the token")
        }
        return .token(token)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Anywhere: a second BOM, or one after white space (bounded: the file is at most 4 KB).
    private static func containsByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.indices.contains { bytes[$0...].starts(with: byteOrderMark) }
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
