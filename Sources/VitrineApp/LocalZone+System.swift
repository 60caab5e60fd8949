import Linux
import RunLoopRules

extension LocalZone {
    /// The system's time zone (TZ, /etc/localtime), read through the C library: what `run` and
    /// `simulate` read the opening hours in.
    public static let system = LocalZone(name: "system", utcOffset: { SystemTimeZone.utcOffset(at: $0) })
}
