import Glibc

/// strftime in the system's locale for time (LC_ALL, LC_TIME or LANG from the environment, as
/// setlocale(LC_TIME, "") reads them): month and day names in the kiosk's language. The locale is
/// loaded once, with newlocale, and passed to strftime_l, so no thread's locale changes and any
/// thread may format. Falls back to the C locale when the environment names one not installed.
public enum LocalTimeFormat {
    nonisolated(unsafe) private static let locale: locale_t? = newlocale(LC_TIME_MASK, "", nil) ?? newlocale(LC_TIME_MASK, "C", nil)

    /// The longest result, in bytes: far more than any date a caption shows ("%e %B %Y" is at most
    /// ~30), far less than a width flag can ask for ("%1000000Y").
    public static let maximumLength = 4096

    /// `format` (strftime's conversions) applied to a calendar date and time; "" when the result
    /// is empty or longer than `maximumLength` (see `formatted`).
    public static func format(_ format: String, year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
                              second: Int = 0) -> String {
        formatted(format, year: year, month: month, day: day, hour: hour, minute: minute, second: second) ?? ""
    }

    /// `format` applied to a calendar date and time; nil when the result would be longer than
    /// `maximumLength` bytes. The buffer grows until the result fits (strftime says only "0" when it
    /// does not, so the format gets a sentinel character, which makes an empty result tell apart
    /// from one that does not fit).
    public static func formatted(_ format: String, year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
                                 second: Int = 0) -> String? {
        var fields = tm()
        // Any Int: the fields may come from a file's EXIF date.
        fields.tm_year = Int32(clamping: year.subtractingReportingOverflow(1900).overflow ? .min : year - 1900)
        fields.tm_mon = Int32(clamping: month.subtractingReportingOverflow(1).overflow ? .min : month - 1)
        fields.tm_mday = Int32(clamping: day)
        fields.tm_hour = Int32(clamping: hour)
        fields.tm_min = Int32(clamping: minute)
        fields.tm_sec = Int32(clamping: second)
        fields.tm_isdst = -1
        // The weekday and day of the year (%A, %j) from the date; timegm leaves the fields as given.
        var copy = fields
        let seconds = timegm(&copy)
        if seconds != -1 {
            fields.tm_wday = copy.tm_wday
            fields.tm_yday = copy.tm_yday
        }
        let sentinel = format + "|"
        var capacity = 256
        while true {
            // The result, the sentinel and strftime's NUL.
            var buffer = [CChar](repeating: 0, count: capacity + 2)
            let count = buffer.withUnsafeMutableBufferPointer { out in
                if let locale { return strftime_l(out.baseAddress!, capacity + 2, sentinel, &fields, locale) }
                return strftime(out.baseAddress!, capacity + 2, sentinel, &fields)
            }
            if count > 0 {
                return String(decoding: buffer[..<(count - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            guard capacity < maximumLength else { return nil }
            capacity = min(capacity * 4, maximumLength)
        }
    }
}
