import Linux

/// The broker's password (`mqtt.password_file`), read through Linux's safe reader at start and on
/// reload. Like the remote token file (`AccessToken`): a byte order mark and the surrounding white
/// space (an editor's newline) are dropped, and a file that is not one password is refused with
/// why, never with its content.
public enum MQTTPassword {
    public enum Loaded: Equatable, Sendable {
        case password(String)
        /// Why the file gives no password.
        case unusable(String)
    }

    public static func load(path: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: 4096)
        } catch {
            return .unusable("cannot read the password file (mqtt.password_file): \(error)")
        }
        let file = "the password file \(LogLine.escaped(path)) (mqtt.password_file)"
        var content = bytes[...]
        if content.starts(with: byteOrderMark) { content = content.dropFirst(byteOrderMark.count) }
        let password = Array(content.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        guard !password.isEmpty else { return .unusable("\(file) is empty") }
        if password.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            return .unusable("\(file) has more than one line; it must hold the password alone, on one line")
        }
        if password.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return .unusable("\(file) has a control character in the password")
        }
        // MQTT's strings are UTF-8; libmosquitto takes a C string.
        guard let text = String(validating: password, as: UTF8.self) else {
            return .unusable("\(file) is not UTF-8 text")
        }
        return .password(text)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
