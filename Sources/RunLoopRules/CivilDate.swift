/// A day of the calendar (proleptic Gregorian), as the opening hours name it: "2026-12-24".
/// Days are counted from 1970-01-01 so the day before, the weekday and a time's day are arithmetic.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// nil when the day does not exist (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// "YYYY-MM-DD", exactly.
    public init?(_ text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy(isASCIIDigits),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day `dayNumber` days after 1970-01-01 (Howard Hinnant's civil_from_days).
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        Weekday(rawValue: ((dayNumber + 3) % 7 + 7) % 7)!
    }

    public var previous: CivilDate { CivilDate(dayNumber: dayNumber - 1) }

    public var description: String { "\(year)-\(twoDigits(month))-\(twoDigits(day))" }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Monday first, as ISO 8601 and the opening hours' ranges (`mon-fri`) count.
public enum Weekday: Int, CaseIterable, Sendable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// "mon" … "sun", as the config writes them.
    public var name: String { ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue] }

    /// "Mon" … "Sun", as STATUS= shows them.
    public var title: String { name.prefix(1).uppercased() + name.dropFirst() }

    public init?(name: Substring) {
        guard let day = Weekday.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = day
    }
}

/// `n` (0...99) with a leading zero below 10: "09", as dates and clock times are written.
func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

/// Whether `text` is made of ASCII digits only (`Int(_:)` also takes a sign).
func isASCIIDigits(_ text: Substring) -> Bool { text.allSatisfy { $0.isASCII && $0.isNumber } }
