import Blitter
import Config
import Foundation
import Geometry
import Linux
import Logging
import Photos
import Rendering
import RunLoopRules
import Scene
import Touch

/// What a playing clip costs the whole process on a still screen: the clip opened in the pager of a
/// `Viewer` (the run loop's own player, ring, renderer and scheduling rule), driven in real time at
/// 60 Hz for `seconds`, each frame that shows a new picture drawn and its changed rows copied into a
/// second buffer as `KMSDisplay` copies them into the dumb buffer. The process's CPU time (every
/// thread: the player's decode and the loop's drawing) over the wall time, after the opening.
enum ClipPlayingCost {
    struct Result {
        let cpuPercent: Double
        let framesDrawn: Int
        let framesShown: Int
        let framesDropped: Int
        let decoder: String
        /// Each frame's time (sample + draw + row copy, ms) during a dismiss drag over the playing clip.
        let dragFrameMs: [Double]
    }

    static func measure(folder: String, screen: (width: Int, height: Int), seconds: Double) throws -> Result {
        var logger = Logger(label: "vitrine-bench")
        logger.logLevel = .warning
        var settings = Settings()
        settings.photos.directory = folder
        let library = try PhotoLibrary(scanning: folder, logger: logger)
        guard !library.items.isEmpty else { throw ClipBenchmark.Failure("no clip in \(folder)") }
        let viewer = Viewer(settings: settings, screenSize: Size(width: Double(screen.width), height: Double(screen.height)),
                            items: library.items, logger: logger, onDecoded: {})
        viewer.clips.tolerance = ClipTimeline.vblankTolerance(refreshPeriod: 1.0 / 60)
        var composed = Bitmap(width: screen.width, height: screen.height)
        var scanout = Bitmap(width: screen.width, height: screen.height)
        let period = 1.0 / 60
        let start = MonotonicClock.now()
        viewer.scene.show(0, at: start)
        var onScreen: SceneFrame?
        /// The frame sampled at `vblank`, drawn and its changed rows copied if it shows a new
        /// picture (as `run` presents it); false when the picture on screen stays.
        func presentFrame(at vblank: Double) -> Bool {
            let frame = viewer.frame(at: vblank)
            guard !frame.showsSamePicture(as: onScreen) else { return false }
            let rows = viewer.draw(frame, into: &composed)
            for range in rows.ranges {
                scanout.copy(from: composed, sourceRect: PixelRect(x: 0, y: range.lowerBound, width: screen.width, height: range.count),
                             to: (0, range.lowerBound))
            }
            onScreen = frame
            return true
        }
        var drawn = 0
        var measuredFrom: (cpu: Double, wall: Double, drawn: Int)?
        var vblank = start
        // Half a second for the opening spring and the first frames; then the clip plays alone.
        while vblank - start < seconds + 0.5 {
            vblank += period
            let wait = vblank - MonotonicClock.now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            if measuredFrom == nil, vblank - start >= 0.5 {
                measuredFrom = (ClipBenchmark.cpuSeconds(), MonotonicClock.now(), drawn)
            }
            if presentFrame(at: vblank) { drawn += 1 }
        }
        let cpu = ClipBenchmark.cpuSeconds(), wall = MonotonicClock.now()
        let from = measuredFrom ?? (cpu, wall, drawn)
        // Then a finger drags the playing clip down for a second (drag to dismiss, held down): each
        // frame sampled at its vblank, drawn and copied while the player keeps decoding beside it.
        let dragStart = vblank + period
        let touches = SyntheticGesture.drag(from: Point(x: Double(screen.width) / 2, y: Double(screen.height) * 0.3),
                                            to: Point(x: Double(screen.width) / 2 + 80, y: Double(screen.height) * 0.65),
                                            time: dragStart, duration: 1.0, end: .stayDown)
        var pending = touches[...]
        var dragFrameMs: [Double] = []
        while vblank < dragStart + 1.0 {
            vblank += period
            let wait = vblank - MonotonicClock.now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            let began = MonotonicClock.now()
            while let touch = pending.first, touch.time <= vblank {
                viewer.handle(.touch(touch))
                pending = pending.dropFirst()
            }
            if presentFrame(at: vblank) { dragFrameMs.append((MonotonicClock.now() - began) * 1000) }
        }
        let decoder = viewer.clips.decoderName ?? "?"
        viewer.clips.stop()
        return Result(cpuPercent: (cpu - from.cpu) / max(1e-9, wall - from.wall) * 100, framesDrawn: drawn - from.drawn,
                      framesShown: viewer.clips.framesShown, framesDropped: viewer.clips.framesDropped, decoder: decoder,
                      dragFrameMs: dragFrameMs)
    }
}
