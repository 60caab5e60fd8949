import Blitter
import Config
import DRM
import Foundation
import Geometry
import Linux
import Logging
import PNG
import Photos
import Rendering
import RunLoopRules
import Scene
import Synchronization

/// `vitrine simulate` and the headless demo: the whole app at 60 Hz of virtual time, input from a
/// script. Every frame `run` would draw (a frame whenever something changed, none while the screen
/// is still) is drawn into memory by the same session and renderer; each tick's frame goes to the
/// trace, and PNG snapshots are taken at the times asked for. Decoding runs on the real worker
/// threads; before each frame it draws the simulator waits for what the frame asked for, so the
/// frames show the same pixels on a fast or a slow machine. The display is counted, not opened:
/// the rows `run`'s two buffers would be written for each frame.
public enum Simulator {
    public static let frameRate = 60.0
    /// Virtual time ends at most here (SPEC §6): a recording or a snapshot beyond it is an error.
    public static let maximumTime = 3600.0

    public struct Outcome {
        /// The snapshots written, in time order.
        public var snapshots: [String] = []
        /// The frames drawn (not the snapshots), the real time each took and the display rows
        /// `run` would write for it.
        public var statistics = FrameStatistics()
    }

    public static func run(_ options: SimulationOptions) throws {
        var settings = try SettingsFile.load(path: options.configPath, mustExist: true)
        if let directory = options.photosDirectory { settings.photos.directory = directory }
        StderrLogHandler.bootstrap(level: settings.log.level)
        let logger = Logger(label: "vitrine")
        let screen = Size(width: options.screenWidth, height: options.screenHeight)

        let photos = try PhotoFolder.scan(settings.photos, cacheMegabytes: settings.cache.megabytes, logger: logger)
        let replay = try options.replayPath.map {
            try ReplayInput(path: $0, screenSize: screen, input: settings.input, display: settings.display)
        }
        if let replay, replay.outOfOrderEvents > 0, let path = options.replayPath {
            logger.warning("""
                recording \(LogLine.escaped(path)): \(replay.outOfOrderEvents) events are stamped earlier than \
                the event before them; replayed in file order at that event's time
                """)
        }
        let input: ScriptedInput? = replay
        let snapshots = options.snapshotTimes.map { (time: $0, name: String(format: "snapshot-%.3f", $0)) }
        SystemTimeZone.reload()
        let wallStart = options.clock.map { Double(LocalZone.system.epoch(of: $0)) }
        let outcome = try simulate(settings: settings, screenSize: screen, items: photos, input: input,
                                   duration: options.duration, wallStart: wallStart, snapshots: snapshots,
                                   outputDirectory: options.outputDirectory, tracePath: options.tracePath, logger: logger)
        for path in outcome.snapshots { print(path) }
        if options.stats { print(outcome.statistics.drawSummary) }
    }

    /// Runs the frame loop at 60 Hz of virtual time until `duration`, or without one until the input
    /// has ended and the scene is at rest. The wall clock (the opening hours) reads `wallStart` + t
    /// in `zone` (nil: the real time at the start).
    public static func simulate(settings: Settings, screenSize: Size, items: [LibraryItem], input: ScriptedInput?,
                                duration: Double?, wallStart: Double? = nil, zone: LocalZone = .system,
                                snapshots: [(time: Double, name: String)],
                                outputDirectory: String, tracePath: String?, logger: Logger,
                                clipSources: @escaping ClipPlayer.SourceFactory = ClipPlayer.readers) throws -> Outcome {
        if !snapshots.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            } catch {
                throw AppError("cannot create the snapshot folder \(outputDirectory): \(error.localizedDescription)")
            }
        }
        let trace = try tracePath.map { try TraceWriter(path: $0) }
        defer { trace?.discard() }

        // Decodes land on worker threads; the loop passes them on at the next tick, as `run`'s
        // eventfd does (a photo that a frame did not wait for: a neighbour, the next screenful).
        let decoded = Atomic<Bool>(false)
        let viewer = Viewer(settings: settings, screenSize: screenSize, items: items, logger: logger,
                            clipSources: clipSources, onDecoded: { decoded.store(true, ordering: .releasing) })
        // Virtual time runs faster than a clip's decoder: each frame waits for the clip frame due.
        viewer.clips.waitsForFrames = true
        let session = KioskSession(viewer: viewer, settings: settings, refreshPeriod: 1 / frameRate, now: 0, zone: zone)
        let wallStart = wallStart ?? WallClock.now()
        var canvas = Bitmap(width: Int(screenSize.width), height: Int(screenSize.height))
        var display = BufferDamage(height: canvas.height)
        var back = 0
        // Rows the snapshots changed in the canvas since the frame last "presented".
        var unpresented = RowSet()
        var pendingSnapshots = snapshots.sorted { $0.time < $1.time }[...]
        var outcome = Outcome()
        let minimumEnd = max(input?.endTime ?? 0, snapshots.map(\.time).max() ?? 0, 1.0)
        let hardEnd = min(duration ?? (minimumEnd + 10), maximumTime)

        var frame = viewer.frame(at: 0)
        var n = 0
        while true {
            let t = Double(n) / frameRate
            if t > hardEnd + 1e-9 { break }
            for event in input?.events(through: t, lastFrame: frame) ?? [] {
                session.dispatch(.input(event), now: event.time, wall: wallStart + event.time)
            }
            session.dispatch(.time, now: t, wall: wallStart + t)
            if decoded.exchange(false, ordering: .acquiring) { session.imagesArrived(now: t) }
            if case let .draw(drawn, moving) = session.nextStep(now: t, flipPending: false, nextVblank: t) {
                // Virtual time runs faster than the decoders: each frame waits for what it asked
                // for, so it shows the photos `run` would show (not placeholders), the same on a
                // fast or a slow machine, and the renderer is timed drawing them.
                viewer.store.waitUntilSettled()
                decoded.store(false, ordering: .releasing)
                // What the wait found refused leaves the grid by the next frame, as in `run`.
                session.dropRefused(now: t)
                let start = MonotonicClock.now()
                let changed = viewer.draw(drawn, into: &canvas).union(unpresented)
                let composeTime = MonotonicClock.now() - start
                unpresented = RowSet()
                let rows = display.rowsToWrite(into: back, changed: changed)
                back = 1 - back
                outcome.statistics.record(composeTime: composeTime,
                                          missedVblanks: session.presented(drawn, at: t, composeTime: composeTime,
                                                                           moving: moving),
                                          rowsWritten: rows.count)
                // Virtual time: the frame is on screen at its vblank, t (SPEC §13).
                for latency in session.flipCompleted(at: t) { outcome.statistics.record(latency: latency) }
                frame = drawn
            } else {
                frame = viewer.frame(at: t)
            }
            let screenOn = session.isScreenOn
            try trace?.write(frame, photos: viewer.store.items.count, screenOn: screenOn,
                             caption: screenOn ? viewer.shownCaption(in: frame)?.text : nil,
                             clip: viewer.clips.current.flatMap { $0.index == frame.currentIndex ? ($0.time, $0.frame) : nil })
            while let next = pendingSnapshots.first, next.time <= t + 1e-9 {
                pendingSnapshots.removeFirst()
                outcome.snapshots.append(try snapshot(frame, of: viewer, into: &canvas, changed: &unpresented,
                                                      path: (outputDirectory as NSString).appendingPathComponent(next.name + ".png")))
            }
            if duration == nil, t >= minimumEnd, !viewer.scene.isAnimating, pendingSnapshots.isEmpty { break }
            n += 1
        }
        try trace?.close()
        return outcome
    }

    /// The frame drawn once everything it asked for is decoded, as a PNG.
    /// `changed` gathers the rows it changed in the canvas, which the next frame presents.
    private static func snapshot(_ frame: SceneFrame, of viewer: Viewer, into canvas: inout Bitmap, changed: inout RowSet,
                                 path: String) throws -> String {
        viewer.store.waitUntilSettled()
        changed.formUnion(viewer.draw(frame, into: &canvas))
        do {
            try PNGEncoder.write(canvas, to: path)
        } catch {
            throw AppError("cannot write snapshot \(path): \(error)")
        }
        return path
    }
}
