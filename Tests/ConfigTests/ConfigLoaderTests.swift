import Config
import Foundation
import TestSupport
import Testing
@testable import ConfigFile

@Suite struct ConfigLoaderTests {
    /// Config/vitrine.toml.
    static let examplePath = TestPaths.exampleConfig

    @Test func exampleFileHoldsExactlyTheDefaults() throws {
        #expect(try ConfigLoader.load(path: Self.examplePath) == Settings())
    }

    @Test func exampleFileShowsEveryKey() throws {
        let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        for table in SettingsSchema.tables {
            #expect(text.contains("\n[\(table.name)]\n"), "[\(table.name)] missing from the example")
            for key in table.keys {
                // calibration's default is "absent", so it is there commented out.
                let pattern = key.name == "calibration" ? "\n# calibration = " : "\n\(key.name) = "
                #expect(text.contains(pattern), "`\(table.name).\(key.name)` missing from the example")
            }
        }
    }

    @Test func emptyFileAndMissingTablesGiveDefaults() throws {
        #expect(try ConfigLoader.parse("", path: "empty.toml") == Settings())
        #expect(try ConfigLoader.parse("# nothing\n\n[grid]\n", path: "grid.toml") == Settings())

        let settings = try ConfigLoader.parse("[grid]\ncolumns = 6\n", path: "grid.toml")
        var expected = Settings()
        expected.scene.grid.columns = 6
        #expect(settings == expected)
    }

    @Test func missingFileIsAnErrorOnlyWhenNamed() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("vitrine-missing-\(UUID().uuidString).toml").path
        #expect(try ConfigLoader.loadIfPresent(path: path) == Settings())

        let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(path: path) }
        #expect(error?.problems.map(\.kind) == [.unreadable])
        #expect(error?.description == "\(path): cannot open: no such file")
    }

    @Test func aConfigThatIsAFIFOOrOverOneMegabyteIsUnreadable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A FIFO is refused without waiting for a writer, even as the default file.
        let fifo = folder + "/vitrine.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let notRegular = #expect(throws: ConfigError.self) { try ConfigLoader.loadIfPresent(path: fifo) }
        #expect(notRegular?.problems.map(\.kind) == [.unreadable])
        #expect(notRegular?.description == "\(fifo): open: not a regular file (a FIFO)")
        // SPEC §5: at most 1 MB.
        let large = folder + "/large.toml"
        try String(repeating: "#", count: (1 << 20) + 1).write(toFile: large, atomically: false, encoding: .utf8)
        let tooLarge = #expect(throws: ConfigError.self) { try ConfigLoader.load(path: large) }
        #expect(tooLarge?.description
                == "\(large): read: file too large: 1048577 bytes (1 MB), the limit is 1048576 bytes (1 MB)")
    }

    @Test func loadReadsAFile() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("vitrine-\(UUID().uuidString).toml").path
        try "[kiosk]\nidle_action = \"slideshow\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        #expect(try ConfigLoader.load(path: path).kiosk.idleAction == .slideshow)
        #expect(try ConfigLoader.loadIfPresent(path: path).kiosk.idleAction == .slideshow)
    }

    @Test func integersAreAcceptedWhereFloatsAreExpected() throws {
        let settings = try ConfigLoader.parse("""
            [animation]
            open_duration = 1
            zoom_damping = 2
            [kiosk]
            idle_timeout = 0
            [grid]
            spacing = 0
            """, path: "ints.toml")
        #expect(settings.scene.open.duration == 1.0)
        #expect(settings.scene.pager.zoom.dampingRatio == 2.0)
        #expect(settings.kiosk.idleTimeout == 0.0)
        #expect(settings.scene.grid.spacing == 0.0)
    }

    @Test func autoMeansNilAndOtherValuesAreKept() throws {
        let auto = try ConfigLoader.parse("""
            [display]
            card = "auto"
            connector = "auto"
            mode = "auto"
            rotation = "auto"
            [input]
            device = "auto"
            rotation = "auto"
            [cache]
            directory = "auto"
            """, path: "auto.toml")
        #expect(auto == Settings())

        let explicit = try ConfigLoader.parse("""
            [display]
            card = "/dev/dri/card1"
            connector = "HDMI-A-1"
            mode = "1920x1080@60"
            [input]
            device = "/dev/input/event3"
            calibration = [0, 1, 0, -1, 0, 1.0]
            [cache]
            directory = "/var/cache/vitrine"
            """, path: "explicit.toml")
        #expect(explicit.display.card == "/dev/dri/card1")
        #expect(explicit.display.connector == "HDMI-A-1")
        #expect(explicit.display.mode == ModeRequest(width: 1920, height: 1080, refreshRate: 60))
        #expect(explicit.input.device == "/dev/input/event3")
        #expect(explicit.input.calibration == [0, 1, 0, -1, 0, 1])
        #expect(explicit.cache.directory == "/var/cache/vitrine")
    }

    @Test(arguments: Settings.Rotation.allCases)
    func rotationsAreReadAsDegrees(rotation: Settings.Rotation) throws {
        let settings = try ConfigLoader.parse("""
            [display]
            rotation = \(rotation.rawValue)
            [input]
            rotation = \(rotation.rawValue)
            """, path: "rotation.toml")
        #expect(settings.display.rotation == rotation)
        #expect(settings.input.rotation == rotation)
    }

    @Test func colorsAndEnumerations() throws {
        let settings = try ConfigLoader.parse("""
            [grid]
            placeholder_color = "#1a2B3c"
            background_color = "#FFFFFF"
            [photos]
            sort = "modified"
            [log]
            level = "debug"
            """, path: "colors.toml")
        #expect(settings.grid.placeholderColor == 0x1A_2B_3C)
        #expect(settings.grid.backgroundColor == 0xFF_FF_FF)
        #expect(settings.photos.sort == .modified)
        #expect(settings.log.level == .debug)
    }

    @Test func dottedKeysAndInlineTablesAreTheSameKeys() throws {
        let settings = try ConfigLoader.parse("""
            grid.columns = 3
            pager = { max_zoom = 8, double_tap_zoom = 3 }
            """, path: "dotted.toml")
        #expect(settings.scene.grid.columns == 3)
        #expect(settings.scene.pager.maxZoom == 8)
        #expect(settings.scene.pager.doubleTapZoom == 3)
    }

    @Test func describeOfDefaultsReadsBackToDefaults() throws {
        let text = Settings().describe()
        #expect(try ConfigLoader.parse(text, path: "describe.toml") == Settings())
        #expect(text.contains("[grid]\ncolumns = 4\n"))
        #expect(text.contains("placeholder_color = \"#202020\"\n"))
        #expect(text.contains("rotation = \"auto\"\n"))
        #expect(text.contains("\n# calibration: not set (identity)\n"))
    }

    @Test func describeOfChangedSettingsReadsBackEqual() throws {
        var settings = Settings()
        settings.display.card = "/dev/dri/card1"
        settings.display.connector = "DSI-1"
        settings.display.mode = ModeRequest(width: 800, height: 480)
        settings.display.rotation = .quarter
        settings.input.device = "/dev/input/by-path/platform-\"touch\"-event"
        settings.input.rotation = .threeQuarters
        settings.input.swapXY = true
        settings.input.invertY = true
        settings.input.calibration = [0, -1, 1, 1, 0, 0]
        settings.input.grab = false
        settings.scene.gestures.tapSlop = 12.5
        settings.photos.directory = "/media/photos with spaces\\"
        settings.photos.sort = .modified
        settings.photos.watch = false
        settings.scene.grid.columns = 7
        settings.grid.placeholderColor = 0x0A_0B_0C
        settings.scene.grid.decelerationRate = 0.99
        settings.scene.pager.maxZoom = 6
        settings.scene.pager.doubleTapZoom = 6
        settings.scene.dismiss.minScale = 0.5
        settings.scene.open.duration = 0.123456789
        settings.scene.grid.bounce.dampingRatio = 0.7
        settings.kiosk.idleAction = .none
        settings.kiosk.blankAfter = 600
        settings.cache.megabytes = 512
        settings.cache.directory = "/var/cache/vitrine"
        settings.log.level = .critical

        let text = settings.describe()
        #expect(try ConfigLoader.parse(text, path: "describe.toml") == settings)
        #expect(text.contains("rotation = 90\n"))
        #expect(text.contains("calibration = [0.0, -1.0, 1.0, 1.0, 0.0, 0.0]\n"))
    }
}
