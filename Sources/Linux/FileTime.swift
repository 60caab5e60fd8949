import Glibc

/// A file's time as the kernel gives it (a `timespec`): whole seconds since the epoch and the
/// nanoseconds into that second. Kept as the two numbers, because nanoseconds since the epoch in
/// 64 bits end on 2262-04-11 and a file may say any time (`touch -d 2300-01-01`, a camera with a
/// wrong clock, a restored backup): the one conversion of a `timespec` every caller uses, exact for
/// every time, never a trap.
public struct FileTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let seconds: Int64
    /// 0..<1_000_000_000.
    public let nanoseconds: Int64

    /// `nanoseconds` outside a second (a corrupt or foreign file system) carries into `seconds`,
    /// saturating at the ends of Int64.
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        var carry = nanoseconds / Self.nanosecondsPerSecond
        var remainder = nanoseconds % Self.nanosecondsPerSecond
        if remainder < 0 {
            remainder += Self.nanosecondsPerSecond
            carry -= 1
        }
        let (sum, overflow) = seconds.addingReportingOverflow(carry)
        if overflow {
            self.seconds = carry > 0 ? .max : .min
            self.nanoseconds = carry > 0 ? Self.nanosecondsPerSecond - 1 : 0
        } else {
            self.seconds = sum
            self.nanoseconds = remainder
        }
    }

    public init(_ spec: timespec) {
        self.init(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }

    /// A count of nanoseconds since the epoch (any Int64 is a time).
    public init(nanosecondsSinceEpoch value: Int64) {
        self.init(seconds: 0, nanoseconds: value)
    }

    static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Nanoseconds since the epoch, saturating at Int64.min and Int64.max (before 1677-09-21 and
    /// after 2262-04-11): for comparing and ordering, not as a file's identity (`exactText` is).
    public var saturatingNanoseconds: Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: Self.nanosecondsPerSecond)
        guard !overflow else { return seconds > 0 ? .max : .min }
        let (sum, carried) = product.addingReportingOverflow(nanoseconds)
        return carried ? .max : sum
    }

    /// Seconds since the epoch as a Double (a Date's time interval): finite for every time.
    public var secondsSinceEpoch: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// The nanoseconds since the epoch in decimal, exactly, for every time (where Int64 holds it,
    /// the same text as that Int64): a file's identity in a cache key.
    public var exactText: String {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: Self.nanosecondsPerSecond)
        if !overflow, case (let sum, false) = product.addingReportingOverflow(nanoseconds) { return String(sum) }
        // Out of Int64's range, so |seconds| >= 9: the seconds' digits, then nine of the fraction.
        if seconds > 0 { return String(seconds) + Self.nineDigits(nanoseconds) }
        guard nanoseconds > 0 else { return String(seconds) + "000000000" }
        // -(|seconds| - 1) seconds and (1e9 - nanoseconds) nanoseconds, written as one negative number.
        return "-" + String((seconds + 1).magnitude) + Self.nineDigits(Self.nanosecondsPerSecond - nanoseconds)
    }

    public var description: String { exactText + " ns" }

    public static func < (a: FileTime, b: FileTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    private static func nineDigits(_ value: Int64) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 9 - text.count)) + text
    }
}

/// A size in bytes as stat(2) gives it: never negative (a corrupt file system, a FUSE mount).
func fileSize(_ size: off_t) -> Int {
    Int(clamping: max(0, size))
}
