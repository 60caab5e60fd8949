import Linux
import Testing

@Suite struct LocalTimeFormatTests {
    /// A date longer than strftime's first buffer is not dropped: the buffer grows.
    @Test func aLongDateGrowsTheBuffer() {
        let format = String(repeating: "%Y-%m-%d ", count: 60)
        let date = LocalTimeFormat.formatted(format, year: 2024, month: 9, day: 25)
        #expect(date == String(repeating: "2024-09-25 ", count: 60))
        #expect(LocalTimeFormat.format(format, year: 2024, month: 9, day: 25).utf8.count == 660)
    }

    /// Past the bound the result is nil, told apart from an empty one.
    @Test func pastTheBoundIsNilAndEmptyIsEmpty() {
        let huge = String(repeating: "x", count: LocalTimeFormat.maximumLength + 1)
        #expect(LocalTimeFormat.formatted(huge, year: 2024, month: 9, day: 25) == nil)
        let fits = String(repeating: "x", count: LocalTimeFormat.maximumLength)
        #expect(LocalTimeFormat.formatted(fits, year: 2024, month: 9, day: 25) == fits)
        #expect(LocalTimeFormat.formatted("", year: 2024, month: 9, day: 25) == "")
        #expect(LocalTimeFormat.format(huge, year: 2024, month: 9, day: 25) == "")
    }
}
