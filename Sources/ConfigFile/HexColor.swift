/// Colours written as "#RRGGBB", held as XRGB8888 (0x00RRGGBB).
enum HexColor {
    static func parse(_ text: String) -> UInt32? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#",
              scalars.dropFirst().allSatisfy(\.properties.isASCIIHexDigit) else { return nil }
        return UInt32(String(text.dropFirst()), radix: 16)
    }

    static func format(_ color: UInt32) -> String {
        let hex = String(color & 0xFF_FF_FF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }
}
