/// The little Vitrine reads from a display's EDID (VESA E-EDID 1.3/1.4 base block): the monitor
/// name, so that `vitrine displays` can say which screen is on which connector.
public enum EDID {
    /// The text of the base block's "display product name" descriptor (tag 0xFC): up to 13 bytes,
    /// ended by a line feed and padded with spaces. nil when the block is short, its header is
    /// wrong or it names no monitor. Bytes outside printable ASCII become "?".
    public static func monitorName(_ bytes: [UInt8]) -> String? {
        let header: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        guard bytes.count >= 128, Array(bytes.prefix(8)) == header else { return nil }
        // Four 18-byte descriptors at 54, 72, 90 and 108; a display descriptor starts 00 00 00 tag 00.
        for offset in stride(from: 54, through: 108, by: 18) {
            guard bytes[offset] == 0, bytes[offset + 1] == 0, bytes[offset + 2] == 0, bytes[offset + 3] == 0xFC
            else { continue }
            let text = bytes[(offset + 5)..<(offset + 18)].prefix { $0 != 0x0A }
            let name = String(decoding: text.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            let trimmed = name.reversed().drop { $0 == " " }.reversed()
            return trimmed.isEmpty ? nil : String(trimmed)
        }
        return nil
    }
}
