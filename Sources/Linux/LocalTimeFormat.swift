import Glibc

/// strftime in the system's locale for time (LC_ALL, LC_TIME or LANG from the environment, as
/// setlocale(LC_TIME, "") reads them): month and day names in the kiosk's language. The locale is
/// loaded once, with newlocale, and passed to strftime_l, so no thread's locale changes and any
/// thread may format. Falls back to the C locale when the environment names one not installed.
public enum LocalTimeFormat {
    nonisolated(unsafe) private static let locale: locale_t? = newlocale(LC_TIME_MASK, "", nil) ?? newlocale(LC_TIME_MASK, "C", nil)

    /// `format` (strftime's conversions) applied to a calendar date and time; "" when the result
    /// would be longer than 256 bytes or the format is empty.
    public static func format(_ format: String, year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
                              second: Int = 0) -> String {
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
        var buffer = [CChar](repeating: 0, count: 257)
        let count = buffer.withUnsafeMutableBufferPointer { out in
            if let locale { return strftime_l(out.baseAddress!, 256, format, &fields, locale) }
            return strftime(out.baseAddress!, 256, format, &fields)
        }
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
