import Testing
import RunLoopRules

/// Europe/Berlin's rules since 1996, written out so no test depends on the host's zone files: CET
/// (UTC+1), and CEST (UTC+2) from the last Sunday of March 01:00 UTC to the last Sunday of October
/// 01:00 UTC.
let berlin = LocalZone(name: "Europe/Berlin") { epoch in
    let year = CivilDate(dayNumber: epoch >= 0 ? epoch / 86400 : (epoch - 86399) / 86400).year
    func lastSunday(_ month: Int) -> Int {
        var date = CivilDate(year: year, month: month, day: 31)!
        while date.weekday != .sunday { date = date.previous }
        return date.dayNumber * 86400 + 3600
    }
    return (lastSunday(3)..<lastSunday(10)).contains(epoch) ? 7200 : 3600
}

/// Seconds since the epoch of a UTC time written "YYYY-MM-DDTHH:MM:SS".
func utc(_ text: String) -> Int { LocalZone.utc.epoch(of: LocalTime(iso: text)!) }

/// The moment Berlin's wall clock shows `text`.
func inBerlin(_ text: String) -> Int { berlin.epoch(of: LocalTime(iso: text)!) }

func hours(_ weekly: [String], closed: [String] = [], special: [String] = []) throws -> OpeningHours {
    OpeningHours(weekly: try weekly.map { try OpeningHours.WeeklyRule.parse($0).get() },
                 closed: closed.map { CivilDate(Substring($0))! },
                 special: try special.map { try OpeningHours.SpecialDay.parse($0).get() })
}

@Suite struct OpeningHoursTests {
    @Test func theTestZoneIsBerlinAroundBothChangesOf2026() {
        #expect(berlin.utcOffset(at: utc("2026-03-29T00:59:59")) == 3600)
        #expect(berlin.utcOffset(at: utc("2026-03-29T01:00:00")) == 7200)
        #expect(berlin.utcOffset(at: utc("2026-10-25T00:59:59")) == 7200)
        #expect(berlin.utcOffset(at: utc("2026-10-25T01:00:00")) == 3600)
        // 02:30 does not happen on the spring night: read with the old offset, it is 03:30 CEST.
        #expect(inBerlin("2026-03-29T02:30:00") == utc("2026-03-29T01:30:00"))
        // 02:30 happens twice on the autumn night: the first.
        #expect(inBerlin("2026-10-25T02:30:00") == utc("2026-10-25T00:30:00"))
    }

    @Test func daysAreSingleRangesWrappingRangesAndLists() throws {
        func days(_ text: String) throws -> [Weekday] {
            try OpeningHours.WeeklyRule.parse("\(text) 09:00-10:00").get().days.sorted { $0.rawValue < $1.rawValue }
        }
        #expect(try days("wed") == [.wednesday])
        #expect(try days("mon-fri") == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(try days("fri-mon") == [.monday, .friday, .saturday, .sunday])
        #expect(try days("mon,wed,sat-sun") == [.monday, .wednesday, .saturday, .sunday])
        #expect(try days("Sun-Sun") == [.sunday])
    }

    @Test func malformedRulesSayWhatIsWrong() {
        func reason(_ text: String) -> String? {
            if case .failure(let failure) = OpeningHours.WeeklyRule.parse(text) { return failure.reason }
            return nil
        }
        #expect(reason("mon-fry 09:00-18:00") == "`fry` is not a day (mon, tue, wed, thu, fri, sat, sun)")
        #expect(reason("mon-fri 9-18") == "`9-18` is not hours HH:MM-HH:MM")
        #expect(reason("mon-fri") == "expected days and hours separated by a space")
        #expect(reason("mon 10:00-10:00") == "`10:00-10:00` is empty; a whole day is 00:00-24:00")
        #expect(reason("mon 24:00-02:00") == "`24:00-02:00` starts at 24:00; the day starts at 00:00")
        #expect(reason("mon 09:60-10:00") == "`09:60-10:00` is not hours HH:MM-HH:MM")
        #expect(reason("mon 00:00-24:00") == nil)
        #expect(reason("mon 09:00-12:00,13:00-17:00") == nil)
        if case .failure(let failure) = OpeningHours.SpecialDay.parse("2026-02-30 10:00-12:00") {
            #expect(failure.reason == "`2026-02-30` is not a date YYYY-MM-DD")
        } else {
            Issue.record("2026-02-30 was taken for a date")
        }
    }

    @Test func weekdayHoursCloseForTheWeekendAndOpenOnMonday() throws {
        let schedule = try hours(["mon-fri 09:00-18:00", "sat 10:00-16:00"])
        #expect(!schedule.isOpen(at: inBerlin("2026-11-23T08:59:59"), in: berlin))
        #expect(schedule.isOpen(at: inBerlin("2026-11-23T09:00:00"), in: berlin))
        #expect(schedule.isOpen(at: inBerlin("2026-11-27T17:59:59"), in: berlin))
        #expect(!schedule.isOpen(at: inBerlin("2026-11-27T18:00:00"), in: berlin))
        // Friday evening: Saturday's hours, then nothing until Monday.
        let friday = inBerlin("2026-11-27T18:30:00")
        #expect(schedule.nextChange(after: friday, in: berlin) == inBerlin("2026-11-28T10:00:00"))
        let saturday = inBerlin("2026-11-28T16:00:00")
        #expect(!schedule.isOpen(at: saturday, in: berlin))
        let monday = try #require(schedule.nextChange(after: saturday, in: berlin))
        #expect(monday == inBerlin("2026-11-30T09:00:00"))
        #expect(OpeningHours.describe(monday, from: saturday, in: berlin) == "Mon 09:00")
    }

    @Test func springForwardMovesOpeningAnHourEarlierInUTCAndSkipsTheMissingHour() throws {
        // Sunday 29 March 2026: 02:00 CET is 03:00 CEST.
        let schedule = try hours(["sat-sun 09:00-18:00"])
        let saturdayOpen = try #require(schedule.nextChange(after: utc("2026-03-28T00:00:00"), in: berlin))
        #expect(saturdayOpen == utc("2026-03-28T08:00:00"))
        let saturdayClose = try #require(schedule.nextChange(after: saturdayOpen, in: berlin))
        #expect(saturdayClose == utc("2026-03-28T17:00:00"))
        let sundayOpen = try #require(schedule.nextChange(after: saturdayClose, in: berlin))
        #expect(sundayOpen == utc("2026-03-29T07:00:00"))
        #expect(try #require(schedule.nextChange(after: sundayOpen, in: berlin)) - sundayOpen == 9 * 3600)

        // A window in the hour that does not happen opens when the clock jumps past its start.
        let night = try hours(["sun 02:30-04:00"])
        #expect(night.nextChange(after: utc("2026-03-28T12:00:00"), in: berlin) == utc("2026-03-29T01:00:00"))
        #expect(night.nextChange(after: utc("2026-03-29T01:00:00"), in: berlin) == utc("2026-03-29T02:00:00"))
    }

    @Test func fallBackMakesANightWindowAnHourLonger() throws {
        // Sunday 25 October 2026: 03:00 CEST is 02:00 CET; the hour from 02:00 happens twice.
        let schedule = try hours(["sat 22:00-06:00", "sun 09:00-18:00"])
        let opens = try #require(schedule.nextChange(after: utc("2026-10-24T12:00:00"), in: berlin))
        #expect(opens == utc("2026-10-24T20:00:00"))
        let closes = try #require(schedule.nextChange(after: opens, in: berlin))
        #expect(closes == utc("2026-10-25T05:00:00"))
        #expect(closes - opens == 9 * 3600)
        // Both 02:30s are open; Sunday's day hours are on CET.
        #expect(schedule.isOpen(at: utc("2026-10-25T00:30:00"), in: berlin))
        #expect(schedule.isOpen(at: utc("2026-10-25T01:30:00"), in: berlin))
        #expect(schedule.nextChange(after: closes, in: berlin) == utc("2026-10-25T08:00:00"))
    }

    @Test func aWindowOverMidnightRunsIntoTheNextDayButNotIntoAClosedOne() throws {
        let schedule = try hours(["fri-sat 20:00-02:00"], closed: ["2026-12-26"])
        // Friday 2026-12-04 evening into Saturday morning.
        #expect(!schedule.isOpen(at: inBerlin("2026-12-04T19:59:00"), in: berlin))
        #expect(schedule.isOpen(at: inBerlin("2026-12-04T23:59:59"), in: berlin))
        #expect(schedule.isOpen(at: inBerlin("2026-12-05T00:00:00"), in: berlin))
        #expect(schedule.isOpen(at: inBerlin("2026-12-05T01:59:59"), in: berlin))
        #expect(!schedule.isOpen(at: inBerlin("2026-12-05T02:00:00"), in: berlin))
        // Sunday morning carries Saturday night; Sunday evening opens nothing.
        #expect(schedule.isOpen(at: inBerlin("2026-12-06T01:00:00"), in: berlin))
        #expect(!schedule.isOpen(at: inBerlin("2026-12-06T21:00:00"), in: berlin))
        // Friday 25th runs into the closed Saturday 26th until midnight only, and the 26th opens nothing.
        #expect(schedule.isOpen(at: inBerlin("2026-12-25T23:00:00"), in: berlin))
        #expect(schedule.nextChange(after: inBerlin("2026-12-25T23:00:00"), in: berlin) == inBerlin("2026-12-26T00:00:00"))
        #expect(schedule.nextChange(after: inBerlin("2026-12-26T00:00:00"), in: berlin) == inBerlin("2027-01-01T20:00:00"))
    }

    @Test func aSpecialDayReplacesTheWeeklyHoursAndAClosedDayClosesAllDay() throws {
        let schedule = try hours(["mon-sun 09:00-18:00"], closed: ["2026-12-25"], special: ["2026-12-24 10:00-14:00"])
        #expect(!schedule.isOpen(at: inBerlin("2026-12-24T09:30:00"), in: berlin))
        #expect(schedule.isOpen(at: inBerlin("2026-12-24T10:00:00"), in: berlin))
        #expect(!schedule.isOpen(at: inBerlin("2026-12-24T14:00:00"), in: berlin))
        let reopens = try #require(schedule.nextChange(after: inBerlin("2026-12-24T14:00:00"), in: berlin))
        #expect(reopens == inBerlin("2026-12-26T09:00:00"))
        #expect(OpeningHours.describe(reopens, from: inBerlin("2026-12-24T14:00:00"), in: berlin) == "Sat 09:00")
    }

    @Test func noRulesIsAlwaysOpenAndNoWindowsEverIsClosedForGood() throws {
        #expect(OpeningHours().isOpen(at: 0, in: berlin))
        #expect(OpeningHours().nextChange(after: 0, in: berlin) == nil)
        let never = try hours([], special: ["2020-01-01 09:00-10:00"])
        #expect(!never.isOpen(at: inBerlin("2026-06-01T09:30:00"), in: berlin))
        #expect(never.nextChange(after: inBerlin("2026-06-01T09:30:00"), in: berlin) == nil)
    }

    @Test func aFarOpeningIsDescribedWithItsDate() {
        let now = inBerlin("2026-12-20T12:00:00")
        #expect(OpeningHours.describe(inBerlin("2027-01-04T09:00:00"), from: now, in: berlin) == "Mon 2027-01-04 09:00")
    }
}
