import Glibc

/// The machine's host name (gethostname(2)), as `mqtt.topic`'s "%hostname%" and Home Assistant's
/// device name use it.
public enum HostName {
    /// The name, or `fallback` when the call fails or gives nothing (a name is never essential).
    public static func current(fallback: String = "vitrine") -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let result = try? systemCall("gethostname") { gethostname(&buffer, buffer.count - 1) }
        guard result != nil else { return fallback }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? fallback : name
    }
}
