import Config
import Foundation
import Glibc
import RunLoopRules
import TestSupport
import Testing
@testable import ConfigFile

/// `vitrine.toml.d/*.toml` (SPEC §5): how a fleet gives one kiosk its own settings.
@Suite struct DropInTests {
    /// A folder with `vitrine.toml` and `vitrine.toml.d/`.
    struct Fleet {
        let folder: TemporaryDirectory
        var main: String { folder.file("vitrine.toml") }
        var dropIns: String { folder.file("vitrine.toml.d") }

        init(main text: String?, dropIns: [String: String]) throws {
            folder = try TemporaryDirectory("dropins")
            if let text { try text.write(toFile: main, atomically: false, encoding: .utf8) }
            try FileManager.default.createDirectory(atPath: self.dropIns, withIntermediateDirectories: true)
            for (name, text) in dropIns {
                try text.write(toFile: self.dropIns + "/" + name, atomically: false, encoding: .utf8)
            }
        }
    }

    @Test func dropInsAreReadInLexicalOrderKeyByKey() throws {
        let fleet = try Fleet(main: "[grid]\ncolumns = 4\nspacing = 8\n\n[kiosk]\nidle_timeout = 300\n", dropIns: [
            "50-kiosk-7.toml": "[grid]\ncolumns = 3\n",
            "10-site.toml": "[grid]\ncolumns = 5\n[schedule]\nhours = [\"mon-fri 09:00-18:00\"]\n",
            "README": "not toml, not read",
            ".70-half-written.toml": "[grid]\ncolumns = 99\n",
        ])
        defer { fleet.folder.remove() }
        let loaded = try ConfigLoader.read(path: fleet.main, mustExist: true)
        // 10-site replaces the main file's 4, 50-kiosk-7 replaces 10-site's 5; spacing stays the main file's.
        #expect(loaded.settings.scene.grid.columns == 3)
        #expect(loaded.settings.scene.grid.spacing == 8)
        #expect(loaded.settings.kiosk.idleTimeout == 300)
        #expect(loaded.settings.kiosk.openingHours.weekly.map(\.text) == ["mon-fri 09:00-18:00"])
        #expect(loaded.files == [fleet.main, fleet.dropIns + "/10-site.toml", fleet.dropIns + "/50-kiosk-7.toml"])
        #expect(loaded.origins["grid.columns"] == fleet.dropIns + "/50-kiosk-7.toml:2")
        #expect(loaded.origins["grid.spacing"] == fleet.main + ":3")
        #expect(loaded.origins["schedule.hours"] == fleet.dropIns + "/10-site.toml:4")
        #expect(loaded.origins["cache.megabytes"] == nil)
        // check-config's listing: every value with where it came from.
        let listing = loaded.describe()
        #expect(listing.contains("\ncolumns = 3  # \(fleet.dropIns)/50-kiosk-7.toml:2\n"))
        #expect(listing.contains("\nspacing = 8.0  # \(fleet.main):3\n"))
        #expect(listing.contains("\nmegabytes = 128  # default\n"))
        #expect(listing.contains("\nhours = [\"mon-fri 09:00-18:00\"]  # \(fleet.dropIns)/10-site.toml:4\n"))
        // ...and it is still TOML that reads back to the same settings.
        #expect(try ConfigLoader.parse(listing, path: "listing.toml") == loaded.settings)
    }

    @Test func anErrorNamesTheDropInThatSetTheKey() throws {
        let fleet = try Fleet(main: "[grid]\ncolumns = 4\n", dropIns: [
            "20-kiosk.toml": "# this kiosk\n[grid]\ncolums = 3\n",
            "30-hours.toml": "[schedule]\nhours = [\"mon-fry 09:00-18:00\"]\n",
        ])
        defer { fleet.folder.remove() }
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.read(path: fleet.main, mustExist: true) }
        #expect(error?.description == """
            \(fleet.dropIns)/20-kiosk.toml:3:1: unknown key `colums` in [grid]; did you mean `columns`?
            \(fleet.dropIns)/30-hours.toml:2:1: `schedule.hours` element 1 must be days and hours such as \
            "mon-fri 09:00-18:00"; got "mon-fry 09:00-18:00": `fry` is not a day (mon, tue, wed, thu, fri, sat, \
            sun); did you mean `fri`?
            """)
    }

    @Test func aCrossCheckNamesTheFileThatSetTheKey() throws {
        let fleet = try Fleet(main: "[pager]\nmax_zoom = 3\n", dropIns: ["10.toml": "[pager]\n\ndouble_tap_zoom = 3.5\n"])
        defer { fleet.folder.remove() }
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.read(path: fleet.main, mustExist: true) }
        #expect(error?.description == "\(fleet.dropIns)/10.toml:3: `pager.double_tap_zoom` = 3.5 is out of range 1...3 (1...pager.max_zoom)")
    }

    @Test func aDropInMustBeARegularFileOfAtMostOneMegabyte() throws {
        let fleet = try Fleet(main: nil, dropIns: [:])
        defer { fleet.folder.remove() }
        #expect(mkfifo(fleet.dropIns + "/10-fifo.toml", 0o600) == 0)
        try String(repeating: "#", count: (1 << 20) + 1).write(toFile: fleet.dropIns + "/20-large.toml",
                                                                atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: fleet.dropIns + "/30-folder.toml", withIntermediateDirectories: true)
        // The main file may be missing (the default path), but not its drop-ins' faults.
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.read(path: fleet.main, mustExist: false) }
        #expect(error?.description == """
            \(fleet.dropIns)/10-fifo.toml: open: not a regular file (a FIFO)
            \(fleet.dropIns)/20-large.toml: read: file too large: 1048577 bytes (1 MB), the limit is 1048576 bytes (1 MB)
            \(fleet.dropIns)/30-folder.toml: open: not a regular file (a directory)
            """)
    }

    @Test func dropInsApplyWithoutTheMainFileAndNoFolderIsFine() throws {
        let fleet = try Fleet(main: nil, dropIns: ["10.toml": "[schedule]\ntouch_wakes = 30\n"])
        defer { fleet.folder.remove() }
        #expect(try ConfigLoader.loadIfPresent(path: fleet.main).kiosk.touchWakes == 30)
        let lonely = try TemporaryDirectory("nodropins")
        defer { lonely.remove() }
        try "[grid]\ncolumns = 2\n".write(toFile: lonely.file("v.toml"), atomically: false, encoding: .utf8)
        #expect(try ConfigLoader.load(path: lonely.file("v.toml")).scene.grid.columns == 2)
    }
}

/// `[schedule]`'s keys and their messages.
@Suite struct ScheduleConfigTests {
    @Test func theOpeningHoursAreRead() throws {
        let settings = try ConfigLoader.parse("""
            [schedule]
            hours = ["mon-fri 09:00-18:00", "sat 10:00-16:00", "fri-sat 20:00-02:00"]
            closed = ["2026-12-25"]
            special = ["2026-12-24 10:00-14:00"]
            touch_wakes = 60
            """, path: "s.toml")
        let schedule = settings.kiosk.openingHours
        #expect(schedule.weekly.count == 3)
        #expect(schedule.weekly[2].windows == [OpeningHours.Window(start: 20 * 60, end: 2 * 60)])
        #expect(schedule.closed == [CivilDate(year: 2026, month: 12, day: 25)!])
        #expect(schedule.special.first?.windows == [OpeningHours.Window(start: 600, end: 840)])
        #expect(settings.kiosk.touchWakes == 60)
        #expect(try ConfigLoader.parse(settings.describe(), path: "d.toml") == settings)
    }

    @Test(arguments: [
        ("hours = \"mon-fri 09:00-18:00\"",
         "s.toml:2:1: `schedule.hours` must be an array of strings, each days and hours such as \"mon-fri 09:00-18:00\", got string"),
        ("hours = [\"mon-fri 9:00-18:00\"]",
         "s.toml:2:1: `schedule.hours` element 1 must be days and hours such as \"mon-fri 09:00-18:00\"; got \"mon-fri 9:00-18:00\": `9:00-18:00` is not hours HH:MM-HH:MM"),
        ("hours = [\"mon-fri 09:00-18:00\", 9]",
         "s.toml:2:1: `schedule.hours` must be an array of strings, each days and hours such as \"mon-fri 09:00-18:00\"; element 2 is 9"),
        ("closed = [\"2026-13-01\"]",
         "s.toml:2:1: `schedule.closed` element 1 must be a date such as \"2026-12-25\"; got \"2026-13-01\": not a date YYYY-MM-DD"),
        ("special = [\"2026-12-24\"]",
         "s.toml:2:1: `schedule.special` element 1 must be a date and hours such as \"2026-12-24 10:00-14:00\"; got \"2026-12-24\": expected a date and hours separated by a space"),
        ("touch_wakes = -1", "s.toml:2:1: `schedule.touch_wakes` = -1 is out of range 0 (off) or 1...86400 s"),
        ("hour = []", "s.toml:2:1: unknown key `hour` in [schedule]; did you mean `hours`?"),
    ])
    func mistakesNameTheLineKeyAndExpectedForm(line: String, message: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.parse("[schedule]\n\(line)\n", path: "s.toml") }
        #expect(error?.description == message)
    }
}
