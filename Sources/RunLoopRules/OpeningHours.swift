/// The kiosk's opening hours (SPEC §8, `[schedule]`) as plain values, and when they open and close.
///
/// The rules, all in local civil time:
/// - A weekly rule is days and windows: `"mon-fri 09:00-18:00"`, `"fri-mon 10:00-16:00"` (a range
///   that wraps past Sunday), `"mon,wed 09:00-12:00,13:00-17:00"`. A window that ends before it
///   starts runs past midnight into the next day (`"sat 20:00-02:00"`); `24:00` ends at midnight.
/// - A special day (`"2026-12-24 10:00-14:00"`) has its own windows instead of the weekly ones; a
///   closed day (`"2026-12-25"`) is closed from midnight to midnight, even where the evening before
///   ran past midnight.
/// - No weekly rule and no special day: always open.
///
/// Times are moments (seconds since the epoch) read through a `LocalZone`, so daylight-saving
/// changes are the zone's business: 02:30 does not happen on a spring-forward night, and a window
/// covering it is open from the first minute after the jump that it covers.
public struct OpeningHours: Equatable, Sendable {
    /// A window of one day, in minutes since midnight. `end <= start`: past midnight.
    public struct Window: Equatable, Sendable {
        public var start: Int
        public var end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        public var crossesMidnight: Bool { end <= start }
    }

    /// Days of the week and their windows: one `hours` entry.
    public struct WeeklyRule: Equatable, Sendable, CustomStringConvertible {
        public var days: Set<Weekday>
        public var windows: [Window]
        /// As written in the config (it is printed back by `check-config`).
        public var text: String

        /// Parses `"mon-fri 09:00-18:00"`; the failure says what is wrong.
        public static func parse(_ text: String) -> Result<WeeklyRule, ParseFailure> {
            let parts = text.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { return .failure(.init("expected days and hours separated by a space")) }
            let days: Set<Weekday>
            switch parseDays(parts[0]) {
            case .success(let parsed): days = parsed
            case .failure(let failure): return .failure(failure)
            }
            return parseWindows(parts[1]).map { WeeklyRule(days: days, windows: $0, text: text) }
        }

        public var description: String { text }
    }

    /// One date's own windows instead of the weekly ones: one `special` entry.
    public struct SpecialDay: Equatable, Sendable, CustomStringConvertible {
        public var date: CivilDate
        public var windows: [Window]
        public var text: String

        /// Parses `"2026-12-24 10:00-14:00"`.
        public static func parse(_ text: String) -> Result<SpecialDay, ParseFailure> {
            let parts = text.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { return .failure(.init("expected a date and hours separated by a space")) }
            guard let date = CivilDate(parts[0]) else {
                return .failure(.init("`\(parts[0])` is not a date YYYY-MM-DD"))
            }
            return parseWindows(parts[1]).map { SpecialDay(date: date, windows: $0, text: text) }
        }

        public var description: String { text }
    }

    /// What is wrong with a rule's text, for the config's message.
    public struct ParseFailure: Error, Equatable, Sendable {
        public var reason: String
        /// The word that should have been a day (the config suggests a close one).
        public var unknownDay: String?

        public init(_ reason: String, unknownDay: String? = nil) {
            self.reason = reason
            self.unknownDay = unknownDay
        }
    }

    public var weekly: [WeeklyRule]
    /// In the order written (`check-config` shows them so); a handful, so looked up in a list.
    public var closed: [CivilDate]
    public var special: [SpecialDay]

    public init(weekly: [WeeklyRule] = [], closed: [CivilDate] = [], special: [SpecialDay] = []) {
        self.weekly = weekly
        self.closed = closed
        self.special = special
    }

    /// No rule at all: open all the time, nothing to watch.
    public var isAlwaysOpen: Bool { weekly.isEmpty && special.isEmpty && closed.isEmpty }

    // MARK: - Open or closed

    public func isOpen(at epoch: Int, in zone: LocalZone) -> Bool {
        isOpen(at: zone.localTime(at: epoch))
    }

    public func isOpen(at local: LocalTime) -> Bool {
        if isAlwaysOpen { return true }
        let date = local.date, minute = local.minuteOfDay
        if closed.contains(date) { return false }
        for window in windows(of: date) where window.start <= minute && minute < (window.crossesMidnight ? 1440 : window.end) {
            return true
        }
        let previous = date.previous
        guard !closed.contains(previous) else { return false }
        return windows(of: previous).contains { $0.crossesMidnight && minute < $0.end }
    }

    /// A date's own windows: its special day's, else the weekly rules' for its weekday.
    func windows(of date: CivilDate) -> [Window] {
        let specials = special.filter { $0.date == date }
        if !specials.isEmpty { return specials.flatMap(\.windows) }
        let weekday = date.weekday
        return weekly.filter { $0.days.contains(weekday) }.flatMap(\.windows)
    }

    /// The minutes of `date` at which the state may change, after `minute`: the windows' starts
    /// and ends, the ends carried over from the evening before, and midnight.
    func nextBoundary(on date: CivilDate, after minute: Int) -> Int {
        var boundaries = [1440]
        for window in windows(of: date) {
            boundaries.append(window.start)
            if !window.crossesMidnight { boundaries.append(window.end) }
        }
        for window in windows(of: date.previous) where window.crossesMidnight { boundaries.append(window.end) }
        return boundaries.filter { $0 > minute }.min() ?? 1440
    }

    /// The first moment after `epoch` at which open becomes closed or closed open; nil when that
    /// does not happen within `horizonDays` (always open, or closed for good).
    ///
    /// It hops from one local boundary to the next; where a hop crossed a change (a boundary, or a
    /// daylight-saving jump that skipped one), the change is found to the second by bisection.
    public func nextChange(after epoch: Int, in zone: LocalZone, horizonDays: Int = 400) -> Int? {
        if isAlwaysOpen { return nil }
        let state = isOpen(at: epoch, in: zone)
        var t = epoch
        while t - epoch < horizonDays * 86400 {
            let local = zone.localTime(at: t)
            let boundary = nextBoundary(on: local.date, after: local.minuteOfDay)
            let next = t + max(boundary * 60 - local.secondOfDay, 1)
            if isOpen(at: next, in: zone) != state {
                var (low, high) = (t, next)
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if isOpen(at: middle, in: zone) == state { low = middle } else { high = middle }
                }
                return high
            }
            t = next
        }
        return nil
    }

    /// "Mon 09:00" for a moment within the coming week, else "Mon 2027-01-04 09:00": for STATUS=
    /// `closed until …`.
    public static func describe(_ epoch: Int, from now: Int, in zone: LocalZone) -> String {
        let local = zone.localTime(at: epoch)
        let day = local.date.weekday.title
        if epoch - now < 6 * 86400 { return "\(day) \(local.clockText)" }
        return "\(day) \(local.date) \(local.clockText)"
    }

    // MARK: - Parsing

    /// `mon`, `mon-fri`, `fri-mon` (wrapping), `mon,wed,fri-sun`.
    static func parseDays(_ text: Substring) -> Result<Set<Weekday>, ParseFailure> {
        var days = Set<Weekday>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count) else { return .failure(.init("`\(item)` is not a day or a range of days")) }
            var parsed: [Weekday] = []
            for end in ends {
                guard let day = Weekday(name: end) else {
                    let names = Weekday.allCases.map(\.name).joined(separator: ", ")
                    return .failure(.init("`\(end)` is not a day (\(names))", unknownDay: String(end)))
                }
                parsed.append(day)
            }
            var day = parsed[0].rawValue
            let last = parsed[parsed.count - 1].rawValue
            days.insert(Weekday(rawValue: day)!)
            while day != last {
                day = (day + 1) % 7
                days.insert(Weekday(rawValue: day)!)
            }
        }
        return .success(days)
    }

    /// `09:00-18:00`, or several separated by commas.
    static func parseWindows(_ text: Substring) -> Result<[Window], ParseFailure> {
        var windows: [Window] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 2, let start = minutes(ends[0]), let end = minutes(ends[1]) else {
                return .failure(.init("`\(item)` is not hours HH:MM-HH:MM"))
            }
            guard start < 1440 else { return .failure(.init("`\(item)` starts at 24:00; the day starts at 00:00")) }
            guard start != end % 1440 || (start == 0 && end == 1440) else {
                return .failure(.init("`\(item)` is empty; a whole day is 00:00-24:00"))
            }
            windows.append(Window(start: start, end: end))
        }
        return .success(windows)
    }

    /// "HH:MM" (00:00 to 24:00) as minutes.
    static func minutes(_ text: Substring) -> Int? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[0].count == 2, fields[1].count == 2,
              fields.allSatisfy(isASCIIDigits),
              let h = Int(fields[0]), let m = Int(fields[1]), m < 60, h < 24 || (h == 24 && m == 0) else { return nil }
        return h * 60 + m
    }
}
