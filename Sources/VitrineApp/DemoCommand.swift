import Config
import Foundation
import Geometry
import Logging
import Quoting

/// `vitrine demo`: the demo tour rendered headless to PNGs and a trace, for a machine without a
/// display (`scripts/run` falls back to it) and for the README's pictures.
public enum DemoCommand {
    public struct Options {
        public var configPath: String?
        public var directory: String
        public var size: Size

        /// `size`: WIDTHxHEIGHT, as `simulate --size` takes it.
        public init(configPath: String?, directory: String, size: String) throws {
            let (w, h) = try SimulationOptions.parseSize(size, example: "1920x1080")
            self.configPath = configPath
            self.directory = directory
            self.size = Size(width: w, height: h)
        }
    }

    /// The tour over the configured photos, or the bundled samples when the configured folder has none.
    public static func run(_ options: Options) throws {
        var settings = try SettingsFile.load(path: options.configPath, mustExist: true)
        StderrLogHandler.bootstrap(level: settings.log.level)
        let logger = Logger(label: "vitrine")
        var photos = (try? PhotoFolder.scan(settings.photos, cacheMegabytes: settings.cache.megabytes, logger: logger)) ?? []
        if photos.isEmpty {
            guard let samples = SamplePhotos.directory() else {
                throw AppError("no photos in \(settings.photos.directory) to render a tour of, and no sample photos found")
            }
            settings.photos.directory = samples
            photos = try PhotoFolder.scan(settings.photos, cacheMegabytes: settings.cache.megabytes, logger: logger)
        }
        let screen = options.size
        print("vitrine: the demo tour, rendered headless: \(photos.count) photos from \(settings.photos.directory) at \(Int(screen.width))x\(Int(screen.height))")
        let tour = DemoTour(screenSize: screen)
        let outcome = try Simulator.simulate(
            settings: settings, screenSize: screen, items: photos, input: tour, duration: nil,
            snapshots: tour.highlights.enumerated().map { (time: $1.time, name: String(format: "%02d-%@", $0 + 1, $1.name)) },
            outputDirectory: options.directory,
            tracePath: (options.directory as NSString).appendingPathComponent("trace.jsonl"), logger: logger)
        let absolute = URL(fileURLWithPath: options.directory).standardizedFileURL.path
        print("vitrine: wrote \(outcome.snapshots.count) PNGs and trace.jsonl to \(absolute)/ (\(outcome.statistics.drawSummary))")
        for path in outcome.snapshots { print("  \(URL(fileURLWithPath: path).lastPathComponent)") }
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
