import Config
import Foundation
import Glibc
import Logging
import TestSupport
import Testing
@testable import VitrineApp

/// SIGHUP's reload (`KioskContent.reload`) reads the drop-ins again too.
@Suite struct KioskContentReloadTests {
    @Test func sighupReadsTheDropInsAgainAndKeepsTheOldSettingsWhenOneIsBroken() throws {
        let folder = try TemporaryDirectory("reload")
        defer { folder.remove() }
        let main = folder.file("vitrine.toml")
        let dropIns = main + ".d"
        try "[grid]\ncolumns = 4\n".write(toFile: main, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
        let logger = Logger(label: "test")
        let settings = try SettingsFile.load(path: main, mustExist: true)
        let content = KioskContent(settings: settings, configPath: main, logger: logger,
                                   status: ServiceStatus(notifier: nil, logger: logger, now: 0), onDecoded: {})
        #expect(content.reload() == .sameSettings)

        // The fleet tool gives this kiosk its own columns and hours.
        try "[grid]\ncolumns = 2\n[schedule]\nhours = [\"sat-sun 10:00-16:00\"]\n"
            .write(toFile: dropIns + "/50-kiosk.toml", atomically: false, encoding: .utf8)
        #expect(content.reload() == .newSettings)
        #expect(content.settings.scene.grid.columns == 2)
        #expect(content.settings.kiosk.openingHours.weekly.map(\.text) == ["sat-sun 10:00-16:00"])

        // A broken drop-in: the settings in use stay.
        try "[grid]\ncolumns = 40\n".write(toFile: dropIns + "/60-typo.toml", atomically: false, encoding: .utf8)
        #expect(content.reload() == .broken)
        #expect(content.settings.scene.grid.columns == 2)

        // Taken away again: back to the main file's.
        try FileManager.default.removeItem(atPath: dropIns + "/60-typo.toml")
        try FileManager.default.removeItem(atPath: dropIns + "/50-kiosk.toml")
        #expect(content.reload() == .newSettings)
        #expect(content.settings.scene.grid.columns == 4)
        #expect(content.settings.kiosk.openingHours.weekly.isEmpty)
    }

    /// What the reload's thread hands back, seen from the test.
    final class Wakes: @unchecked Sendable {
        private let lock = NSLock()
        private var threads: [pthread_t] = []
        let done = DispatchSemaphore(value: 0)

        func record() {
            lock.withLock { threads.append(pthread_self()) }
            done.signal()
        }

        var all: [pthread_t] { lock.withLock { threads } }
    }

    /// `run`'s reload through its seam: `beginReload` only starts the reading, which reads the
    /// file when it runs (here, when the test runs it), never on the loop's call; the loop takes
    /// the result when woken. SIGHUPs meanwhile make one more reading, not one each.
    @Test func theReloadReadsOffTheLoopAndTheLoopOnlyAppliesTheResult() throws {
        let folder = try TemporaryDirectory("reload")
        defer { folder.remove() }
        let main = folder.file("vitrine.toml")
        try "[grid]\ncolumns = 4\n".write(toFile: main, atomically: false, encoding: .utf8)
        let logger = Logger(label: "test")
        let wakes = Wakes()
        nonisolated(unsafe) var readings: [@Sendable () -> Void] = []
        let content = KioskContent(settings: try SettingsFile.load(path: main, mustExist: true), configPath: main,
                                   logger: logger, status: ServiceStatus(notifier: nil, logger: logger, now: 0),
                                   onDecoded: {}, onReloaded: { wakes.record() }, background: { readings.append($0) })
        content.beginReload()
        #expect(readings.count == 1)
        #expect(content.isReloading)
        // The file changes after the loop's call returned: the reading sees the new one.
        try "[grid]\ncolumns = 2\n".write(toFile: main, atomically: false, encoding: .utf8)
        #expect(content.finishReload() == nil)
        #expect(content.settings.scene.grid.columns == 4)
        // A SIGHUP storm while it runs: no reading more yet.
        for _ in 0..<50 { content.beginReload() }
        #expect(readings.count == 1)

        readings[0]()
        #expect(wakes.all.count == 1)
        #expect(content.finishReload() == .newSettings)
        #expect(content.settings.scene.grid.columns == 2)
        // The storm's one reading, started when the first was applied.
        #expect(readings.count == 2)
        #expect(content.isReloading)
        readings[1]()
        #expect(content.finishReload() == .sameSettings)
        #expect(!content.isReloading)
        #expect(readings.count == 2)
    }

    /// Without a seam, the reading runs on a thread of its own and wakes the loop from there.
    @Test func theReadingRunsOnAThreadOfItsOwn() throws {
        let folder = try TemporaryDirectory("reload")
        defer { folder.remove() }
        let main = folder.file("vitrine.toml")
        try "[grid]\ncolumns = 3\n".write(toFile: main, atomically: false, encoding: .utf8)
        let logger = Logger(label: "test")
        let wakes = Wakes()
        let content = KioskContent(settings: Settings(), configPath: main, logger: logger,
                                   status: ServiceStatus(notifier: nil, logger: logger, now: 0),
                                   onDecoded: {}, onReloaded: { wakes.record() })
        content.beginReload()
        #expect(wakes.done.wait(timeout: .now() + 30) == .success)
        let thread = try #require(wakes.all.first)
        #expect(pthread_equal(thread, pthread_self()) == 0)
        #expect(content.finishReload() == .newSettings)
        #expect(content.settings.scene.grid.columns == 3)
    }

    /// A changed photo folder is read off the loop too: the loop's call only starts the reading,
    /// which reads the folder and not the config file; a SIGHUP meanwhile is not lost, the next
    /// reading reads the settings.
    @Test func aFolderRescanReadsOffTheLoopAndLeavesTheSettings() throws {
        let folder = try TemporaryDirectory("rescan")
        defer { folder.remove() }
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let main = folder.file("vitrine.toml")
        try "[photos]\ndirectory = \"\(photos)\"\n[grid]\ncolumns = 4\n".write(toFile: main, atomically: false, encoding: .utf8)
        let logger = Logger(label: "test")
        nonisolated(unsafe) var readings: [@Sendable () -> Void] = []
        let content = KioskContent(settings: try SettingsFile.load(path: main, mustExist: true), configPath: main,
                                   logger: logger, status: ServiceStatus(notifier: nil, logger: logger, now: 0),
                                   onDecoded: {}, background: { readings.append($0) })
        content.scan()
        #expect(content.items.isEmpty)

        try FileManager.default.copyItem(atPath: TestJPEGs.path("orientation/Landscape_1.jpg"), toPath: photos + "/a.jpg")
        try "[photos]\ndirectory = \"\(photos)\"\n[grid]\ncolumns = 2\n".write(toFile: main, atomically: false, encoding: .utf8)
        content.beginRescan()
        #expect(readings.count == 1)
        #expect(content.items.isEmpty)  // nothing read on the loop's call
        content.beginReload()  // a SIGHUP while the rescan runs
        readings[0]()
        #expect(content.finishReload() == .photosOnly)
        #expect(content.items.count == 1)
        #expect(content.settings.scene.grid.columns == 4)  // a rescan does not read the config file
        #expect(readings.count == 2)
        readings[1]()
        #expect(content.finishReload() == .newSettings)
        #expect(content.settings.scene.grid.columns == 2)
    }
}
