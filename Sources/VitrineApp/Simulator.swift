import Blitter
import Config
import Foundation
import Geometry
import Logging
import PNG
import Photos
import Scene

/// `vitrine simulate` and the headless tour: the whole app at 60 Hz of virtual time, input from a
/// script, frames written as a trace and PNG snapshots. Decoding runs on the real worker threads;
/// before each snapshot the simulator waits for what the frame asked for, so a snapshot shows the
/// same pixels on a fast or a slow machine.
public enum Simulator {
    public static let frameRate = 60.0

    public static func run(_ options: SimulationOptions) throws {
        var settings = try SettingsFile.load(path: options.configPath, mustExist: true)
        if let directory = options.photosDirectory { settings.photos.directory = directory }
        StderrLogHandler.bootstrap(level: Logger.Level(settings.log.level))
        let logger = Logger(label: "vitrine")
        let screen = Size(width: options.screenWidth, height: options.screenHeight)

        let photos = try PhotoFolder.scan(settings.photos, logger: logger)
        let input: ScriptedInput? = try options.replayPath.map {
            try ReplayInput(path: $0, screenSize: screen, input: settings.input, display: settings.display)
        }
        let snapshots = options.snapshotTimes.map { (time: $0, name: String(format: "snapshot-%.3f", $0)) }
        let written = try simulate(settings: settings, screenSize: screen, photos: photos, input: input,
                                   duration: options.duration, snapshots: snapshots,
                                   outputDirectory: options.outputDirectory, tracePath: options.tracePath, logger: logger)
        for path in written { print(path) }
    }

    /// Runs the frame loop; returns the paths of the snapshots written.
    public static func simulate(settings: Settings, screenSize: Size, photos: [PhotoInfo], input: ScriptedInput?,
                                duration: Double?, snapshots: [(time: Double, name: String)],
                                outputDirectory: String, tracePath: String?, logger: Logger) throws -> [String] {
        if !snapshots.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            } catch {
                throw AppError("cannot create the snapshot folder \(outputDirectory): \(error.localizedDescription)")
            }
        }
        let trace = try tracePath.map { try TraceWriter(path: $0) }
        defer { trace?.discard() }

        let viewer = Viewer(settings: settings, screenSize: screenSize, photos: photos, logger: logger, onDecoded: {})
        var canvas = Bitmap(width: Int(screenSize.width), height: Int(screenSize.height))
        var pendingSnapshots = snapshots.sorted { $0.time < $1.time }[...]
        var written: [String] = []
        let lastInput = input?.endTime ?? 0
        let minimumEnd = max(lastInput, snapshots.map(\.time).max() ?? 0, 1.0)
        // Without a fixed duration: until the input has ended and the scene is at rest (bounded).
        let hardEnd = duration ?? (minimumEnd + 10)

        var frame = viewer.frame(at: 0)
        var n = 0
        while true {
            let t = Double(n) / frameRate
            if t > hardEnd + 1e-9 { break }
            for event in input?.events(through: t, lastFrame: frame) ?? [] {
                viewer.handle(event)
            }
            frame = viewer.frame(at: t)
            try trace?.write(frame)
            while let next = pendingSnapshots.first, next.time <= t + 1e-9 {
                pendingSnapshots.removeFirst()
                viewer.store.waitUntilSettled()
                viewer.draw(frame, into: &canvas)
                let path = (outputDirectory as NSString).appendingPathComponent(next.name + ".png")
                do {
                    try PNGEncoder.write(canvas, to: path)
                } catch {
                    throw AppError("cannot write snapshot \(path): \(error)")
                }
                written.append(path)
            }
            if duration == nil, t >= minimumEnd, !viewer.scene.isAnimating, pendingSnapshots.isEmpty { break }
            n += 1
        }
        try trace?.close()
        return written
    }
}

extension Logger.Level {
    init(_ level: Settings.LogLevel) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
