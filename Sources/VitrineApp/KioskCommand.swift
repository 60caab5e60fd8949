import Config
import DRM
import Foundation
import Geometry
import Logging
import Photos

public struct KioskOptions {
    public static let defaultConfigPath = "/etc/vitrine/vitrine.toml"
    public var configPath: String
    /// A config named on the command line must exist; the default one may be missing (defaults).
    public var explicitConfig: Bool
    /// Where the headless tour writes its PNGs when there is no display.
    public var tourDirectory: String

    public init(configPath: String, explicitConfig: Bool, tourDirectory: String) {
        self.configPath = configPath
        self.explicitConfig = explicitConfig
        self.tourDirectory = tourDirectory
    }
}

/// `vitrine run`: the kiosk on the DRM display, or, on a machine with no display at all, the demo
/// tour rendered headless to PNGs (said loudly: never a silent fallback).
public enum KioskCommand {
    public static func run(_ options: KioskOptions) throws {
        let settings = try SettingsFile.load(path: options.configPath, mustExist: options.explicitConfig)
        StderrLogHandler.bootstrap(level: Logger.Level(settings.log.level))
        let logger = Logger(label: "vitrine")

        if settings.display.card == nil && !DisplayDevices.anyCardPresent() {
            try runHeadlessTour(settings: settings, directory: options.tourDirectory, logger: logger)
            return
        }
        let runner = try KioskRunner(settings: settings, configPath: options.configPath, logger: logger)
        defer { runner.close() }
        try runner.run()
    }

    /// The demo tour at 1920x1080 over the configured photos, or the bundled samples when the
    /// configured folder has none.
    static func runHeadlessTour(settings: Settings, directory: String, logger: Logger) throws {
        var settings = settings
        var photos = (try? PhotoFolder.scan(settings.photos, logger: logger)) ?? []
        if photos.isEmpty {
            guard let samples = SamplePhotos.directory() else {
                throw AppError("no display (/dev/dri has no card) and no photos in \(settings.photos.directory) to render a tour of")
            }
            settings.photos.directory = samples
            photos = try PhotoFolder.scan(settings.photos, logger: logger)
        }
        let screen = Size(width: 1920, height: 1080)
        print("vitrine: no display here (/dev/dri has no card), so this is the demo tour rendered headless:")
        print("vitrine: \(photos.count) photos from \(settings.photos.directory) at \(Int(screen.width))x\(Int(screen.height))")
        let tour = DemoTour(screenSize: screen)
        let written = try Simulator.simulate(
            settings: settings, screenSize: screen, photos: photos, input: tour, duration: nil,
            snapshots: tour.highlights.enumerated().map { (time: $1.time, name: String(format: "%02d-%@", $0 + 1, $1.name)) },
            outputDirectory: directory, tracePath: (directory as NSString).appendingPathComponent("trace.jsonl"),
            logger: logger)
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        print("vitrine: wrote \(written.count) PNGs and trace.jsonl to \(absolute)/")
        for path in written { print("  \(URL(fileURLWithPath: path).lastPathComponent)") }
    }
}

/// Finds the sample photos shipped with Vitrine: next to the source tree the binary was built in,
/// or where `make install` puts them.
enum SamplePhotos {
    static func directory() -> String? {
        var candidates: [String] = []
        if let own = ProcessInfo.processInfo.environment["VITRINE_SAMPLES"] { candidates.append(own) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("Samples/photos").path)
            folder = folder.deletingLastPathComponent()
        }
        candidates.append("/usr/local/share/vitrine/samples")
        candidates.append(FileManager.default.currentDirectoryPath + "/Samples/photos")
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}

/// What /dev/dri holds.
enum DisplayDevices {
    static func anyCardPresent() -> Bool { !DRMCard.cardPaths().isEmpty }
}
