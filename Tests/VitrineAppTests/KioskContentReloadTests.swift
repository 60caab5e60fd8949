import Config
import Foundation
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
}
