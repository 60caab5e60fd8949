/// A time zone as the opening hours need it: the offset from UTC at each moment, which is all
/// that local civil time depends on. `run` passes the system's (the C library's localtime_r over
/// TZ or /etc/localtime, module Linux); tests pass fixed rules, so they never depend on the host.
public struct LocalZone: Equatable, Sendable {
    /// For messages and equality (two zones of one name are the same rules).
    public let name: String
    private let offset: @Sendable (Int) -> Int

    /// `utcOffset`: seconds east of UTC in effect at a time (seconds since the epoch).
    public init(name: String, utcOffset: @escaping @Sendable (Int) -> Int) {
        self.name = name
        offset = utcOffset
    }

    public static let utc = LocalZone(name: "UTC", utcOffset: { _ in 0 })

    public func utcOffset(at epoch: Int) -> Int { offset(epoch) }

    public static func == (a: LocalZone, b: LocalZone) -> Bool { a.name == b.name }

    /// The local civil time at `epoch` (seconds since 1970-01-01 UTC).
    public func localTime(at epoch: Int) -> LocalTime {
        let local = epoch + offset(epoch)
        let day = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let second = local - day * 86400
        return LocalTime(date: CivilDate(dayNumber: day), secondOfDay: second)
    }

    /// The moment the wall clock reads `local` (`simulate --clock`). A time skipped by a
    /// daylight-saving change is read with the offset before it (02:30 on a spring-forward night is
    /// 03:30); a time that happens twice is the first.
    public func epoch(of local: LocalTime) -> Int {
        let wall = local.date.dayNumber * 86400 + local.secondOfDay
        let before = wall - offset(wall - 86400)
        let after = wall - offset(wall + 86400)
        // The earlier reading that really shows `local`, else (a gap) the one with the old offset.
        for candidate in [min(before, after), max(before, after)] where localTime(at: candidate) == local {
            return candidate
        }
        return before
    }
}

/// A moment as a wall clock in the zone shows it.
public struct LocalTime: Equatable, Sendable {
    public var date: CivilDate
    /// 0..<86400.
    public var secondOfDay: Int

    public init(date: CivilDate, secondOfDay: Int) {
        self.date = date
        self.secondOfDay = secondOfDay
    }

    public var minuteOfDay: Int { secondOfDay / 60 }

    /// "YYYY-MM-DDTHH:MM:SS" (`simulate --clock`).
    public init?(iso text: String) {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = CivilDate(parts[0]) else { return nil }
        let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ $0.count == 2 && isASCIIDigits($0) }),
              let h = Int(fields[0]), let m = Int(fields[1]), let s = Int(fields[2]),
              h < 24, m < 60, s < 60 else { return nil }
        self.init(date: date, secondOfDay: h * 3600 + m * 60 + s)
    }

    /// "HH:MM".
    public var clockText: String {
        let h = secondOfDay / 3600, m = secondOfDay / 60 % 60
        return twoDigits(h) + ":" + twoDigits(m)
    }
}
