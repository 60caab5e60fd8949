/// A size as a message gives it: "512 bytes", "4 KB", "29.7 KB", "1.5 MB", "3.2 GB" (units of 1024,
/// one decimal unless it is 0), without Foundation's locale-dependent formatting. A size under a
/// megabyte is in kilobytes and one under a kilobyte in bytes: "0.0 MB" says nothing.
public struct ByteCount: CustomStringConvertible, Equatable, Sendable {
    public var bytes: Int

    public init(_ bytes: Int) {
        self.bytes = bytes
    }

    public var description: String {
        let magnitude = Double(bytes.magnitude)
        let sign = bytes < 0 ? "-" : ""
        guard magnitude >= 1024 else { return "\(bytes) byte\(magnitude == 1 ? "" : "s")" }
        var unit = 0
        var tenths = (magnitude / 1024 * 10).rounded()
        // The next unit once this one's figure rounds to 1024 (1,048,575 bytes is "1 MB", not "1024 KB").
        while tenths >= 10240, unit < Self.units.count - 1 {
            unit += 1
            tenths = (magnitude / Self.scale(unit) * 10).rounded()
        }
        let whole = Int(tenths) / 10, tenth = Int(tenths) % 10
        return "\(sign)\(whole)\(tenth == 0 ? "" : ".\(tenth)") \(Self.units[unit])"
    }

    private static let units = ["KB", "MB", "GB", "TB", "PB", "EB"]

    /// 1024 to the power of `unit` + 1.
    private static func scale(_ unit: Int) -> Double {
        (0...unit).reduce(1.0) { value, _ in value * 1024 }
    }
}
