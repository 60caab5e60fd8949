import Blitter
import CPixman
import Config
import Foundation
import Geometry
import Linux
import Logging
import Photos
import Rendering
import Scene
import Touch

/// `vitrine-bench motion [--samples DIR] [--passes N] [--only WORD] [--frames] [--markdown FILE] [--record FILE]`: the frames
/// of continuous gestures as the kiosk draws them, against pixman's naive composite of each same
/// frame, in one run.
///
/// A `Viewer` on the sample folder (the scene, photo store, renderer with its grid layer cache,
/// captions and damage bookkeeping that `simulate` and `run` use) is driven at 60 Hz of virtual
/// time through made-up touches: a finger scrolling the grid up, the grid coasting after it lifts,
/// a tap opening a photo (the opening zoom), a finger dragging that photo down (a continuous
/// dismiss drag, held down). Every frame that shows a new picture is kept, as `simulate` draws it.
/// Each sequence is then replayed: for every frame, ours is `Viewer.draw` of it followed by the
/// copy of the rows it changed into a second screen-sized buffer (as `run` copies them into the
/// dumb buffer); pixman's is `NaiveComposite.render` of the same frame (grid layer copied, black
/// at the alpha OVER it as one translucent solid, the photo bilinear; the plain grid cell by
/// cell), timed alternating frame by frame; each timed frame follows its predecessor drawn untimed
/// by the same side (ours after the frame before that, so it does its real work), so each starts
/// from its own pictures in the cache and ours' changed rows are those of a real sequence. Each
/// side draws into a target of its own: the renderer keeps the background pixels of its last
/// picture that the next frame shows too, as it does in the kiosk, so pixman may not write into its
/// target between its frames. `--frames` prints each frame's medians as well, with what it shows:
/// where a sequence's ratio comes from.
enum MotionBenchmark {
    /// One gesture's frames.
    struct Sequence {
        var name: String
        var frames: [SceneFrame]
        var goal: Double?
    }

    struct Result {
        var name: String
        var frames: Int
        /// Ours: draw + row copy, and draw alone; pixman's naive composite.
        var ours: Timing
        var oursDraw: Timing
        var pixman: Timing
        var maxDifference: Int
        var goal: Double?
        /// Each timed frame's medians over the passes (frames 1...): ours, draw alone and pixman's, ms.
        var perFrame: [(ours: Double, draw: Double, pixman: Double)]

        /// The sequence's cost, ours over pixman's: each frame's median summed. Not the ratio of
        /// the medians of all frames: in a sequence of two kinds of frame (the opening's over the
        /// dimmed grid, then over black) those fall between the kinds, on unlike frames.
        var ratio: Double { perFrame.map(\.ours).reduce(0, +) / perFrame.map(\.pixman).reduce(0, +) }
        var p99Ratio: Double { ours.p99 / pixman.p99 }
        var drawRatio: Double { perFrame.map(\.draw).reduce(0, +) / perFrame.map(\.pixman).reduce(0, +) }
    }

    static func run(arguments: [String]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let folder = option("--samples", in: arguments) ?? root + "/Samples/photos"
        let passes = max(1, Int(option("--passes", in: arguments) ?? "") ?? 5)
        if !ProcessHeap.mapLargeBlocks() { print("mallopt(M_MMAP_THRESHOLD) refused: pictures come from the heap") }
        let cpu = pinToOneCore()
        print(cpu.map { "Pinned to CPU \($0) (sched_setaffinity); one core for ours and pixman alike." }
              ?? "Could not pin to one CPU; timings may move between cores.")
        let screen = (width: 1920, height: 1080)
        var logger = Logger(label: "vitrine-bench")
        logger.logLevel = .warning
        var settings = Settings()
        settings.photos.directory = folder
        let library = try PhotoLibrary(scanning: folder, logger: logger)
        let viewer = Viewer(settings: settings, screenSize: Size(width: Double(screen.width), height: Double(screen.height)),
                            items: library.items, logger: logger, onDecoded: {})
        let (sequences, touches) = record(viewer, screen: screen)
        if let path = option("--record", in: arguments) {
            let text = EvemuWriter.touchscreen(name: "vitrine-bench motion", screen: Size(width: Double(screen.width), height: Double(screen.height)),
                                               frames: touches, comment: "vitrine-bench motion: the grid scrolled and coasting, a photo opened, dragged down and held")
            try AtomicFile.write(Array(text.utf8), to: path)
            print("Wrote the gestures to \(path)")
        }
        print("")
        print(line(["1920x1080, \(library.items.count) photos", "frames", "ours ms", "p99", "draw ms", "pixman ms", "p99",
                    "ratio", "p99 ratio", "draw ratio", "max diff", "goal"]))
        var results: [Result] = []
        let only = option("--only", in: arguments)
        for sequence in sequences where only.map({ sequence.name.contains($0) }) ?? true {
            let result = measure(sequence, viewer: viewer, screen: screen, passes: passes)
            results.append(result)
            print(line(cells(result, miss: "MISS")))
            if arguments.contains("--frames") { printFrames(sequence, result, viewer: viewer) }
        }
        let copy = copyTiming(screen: screen)
        print("\n" + memoryNote(copy, screen: screen))
        if let path = option("--markdown", in: arguments) {
            try MarkdownSections.write("motion", text: markdown(results, passes: passes, cpu: cpu, photos: library.items.count,
                                                                copy: copy, screen: screen),
                                       to: path)
            print("\nWrote \(path)")
        }
    }

    /// A whole-screen copy between two pictures, median ms: what the host's memory does in this
    /// run. Both sides' memory-bound work (the dim, the copies, a shrink's source rows) moves with
    /// it, and on a host whose memory is slow their ratios drift towards the bytes each moves.
    static func copyTiming(screen: (width: Int, height: Int)) -> Double {
        let source = Bitmap(width: screen.width, height: screen.height, color: 0x0020_4060)
        var targets = [Bitmap(width: screen.width, height: screen.height), Bitmap(width: screen.width, height: screen.height)]
        var times: [Double] = []
        for i in 0..<60 {
            let t0 = Stopwatch.now()
            targets[i % 2].copy(from: source, to: (0, 0))
            if i >= 10 { times.append((Stopwatch.now() - t0) * 1000) }
        }
        return Stopwatch.timing(times).median
    }

    static func memoryNote(_ copy: Double, screen: (width: Int, height: Int)) -> String {
        let bytes = Double(2 * screen.width * screen.height * 4)
        return String(format: "Memory in this run: a %dx%d copy took %.3f ms (%.1f GB/s read and written).",
                      screen.width, screen.height, copy, bytes / (copy / 1000) / 1e9)
    }

    // MARK: The gestures

    /// Drives `viewer` through the gestures at 60 Hz; the frames each one drew, and every touch.
    static func record(_ viewer: Viewer, screen: (width: Int, height: Int)) -> ([Sequence], [TouchFrame]) {
        var canvas = Bitmap(width: screen.width, height: screen.height)
        let period = 1.0 / 60
        var t = 0.0
        var shown: SceneFrame?
        var allTouches: [TouchFrame] = []
        /// Plays `touches` from now for at least `duration`, then until the scene rests (or
        /// `untilRest` is false); the frames that show a new picture, each drawn as `simulate`
        /// draws it (once what it asked for is decoded).
        func play(_ touches: [TouchFrame], duration: Double, untilRest: Bool = true) -> [SceneFrame] {
            allTouches += touches
            var pending = touches[...]
            var frames: [SceneFrame] = []
            let end = t + duration
            while t < end || (untilRest && viewer.scene.isAnimating && t < end + 5) {
                t += period
                while let touch = pending.first, touch.time <= t {
                    viewer.handle(.touch(touch))
                    pending = pending.dropFirst()
                }
                let frame = viewer.frame(at: t)
                guard !frame.showsSamePicture(as: shown) else { continue }
                viewer.store.waitUntilSettled()
                viewer.draw(frame, into: &canvas)
                shown = frame
                frames.append(frame)
            }
            return frames
        }
        let midX = Double(screen.width) / 2
        _ = play([], duration: 0.1)
        // A finger scrolls the grid up by 500 px in 0.5 s and lifts: the frames while it is down,
        // then the grid coasting (and springing back at the end, if it gets there).
        let scrollTouches = SyntheticGesture.drag(from: Point(x: midX, y: 900), to: Point(x: midX, y: 400), time: t + period,
                                                  duration: 0.5, end: .lift(after: period))
        let scrolled = play(scrollTouches, duration: 0.5 + 2 * period, untilRest: false)
        let coasting = play([], duration: 0)
        // A tap on the cell under the centre opens it: the opening zoom.
        let tap = SyntheticGesture.tap(at: Point(x: midX - 200, y: Double(screen.height) / 2), time: t + period)
        let opening = play(tap, duration: 0.2).filter { $0.mode == .opening }
        _ = play([], duration: 0.2)
        // A finger drags the photo down 300 px and 100 px to the side in 1 s and stays down (the
        // background reaches alpha 0 at 200 px, `dismiss.max_drag`).
        let center = Point(x: midX, y: Double(screen.height) / 2)
        let drag = SyntheticGesture.drag(from: center, to: Point(x: center.x + 100, y: center.y + 300), time: t + period,
                                         duration: 1.0, end: .stayDown)
        let dragging = play(drag, duration: 1.0 + period, untilRest: false).filter { $0.mode == .dismissing }
        return ([Sequence(name: "dismiss drag, held down", frames: dragging, goal: 0.5),
                 Sequence(name: "grid scroll, finger down", frames: scrolled.filter { $0.mode == .grid }, goal: 0.5),
                 Sequence(name: "grid scroll, coasting", frames: coasting.filter { $0.mode == .grid }, goal: 0.5),
                 Sequence(name: "opening zoom", frames: opening, goal: 0.5)].filter { $0.frames.count > 1 },
                allTouches)
    }

    // MARK: Timing

    static func measure(_ sequence: Sequence, viewer: Viewer, screen: (width: Int, height: Int), passes: Int) -> Result {
        let canvas = Canvas(Bitmap(width: screen.width, height: screen.height))
        var scanout = Bitmap(width: screen.width, height: screen.height)
        let frames = sequence.frames
        viewer.draw(frames[0], into: &canvas.bitmap)
        let naive = NaiveComposite(photos: viewer.store, grid: viewer.settings.grid, width: screen.width, height: screen.height)
        // pixman's grid layers, one per grid (a transition's frames share one): drawn ahead, copied
        // per frame, as the renderer's cache is. The plain grid (scrolling) is drawn cell by cell.
        var layers: [(cells: [GridCell], hidden: Int?, image: PixmanImage)] = []
        func layer(for frame: SceneFrame) -> PixmanImage? {
            guard frame.drawsGrid, frame.backgroundAlpha > 0 || frame.movingPhoto != nil || !frame.pages.isEmpty else { return nil }
            if let found = layers.first(where: { $0.cells == frame.gridCells && $0.hidden == frame.hiddenIndex }) { return found.image }
            let image = PixmanImage(width: screen.width, height: screen.height)
            naive.drawGrid(frame, into: image)
            layers.append((frame.gridCells, frame.hiddenIndex, image))
            return image
        }
        let gridLayers = frames.map(layer(for:))
        // The largest difference, on the middle frame.
        let middle = frames.count / 2
        var ourPicture = Bitmap(width: screen.width, height: screen.height)
        viewer.draw(frames[middle], into: &ourPicture)
        let reference = PixmanImage(width: screen.width, height: screen.height)
        naive.render(frames[middle], gridLayer: gridLayers[middle], into: reference)
        let difference = maxDifference(ourPicture, reference.bitmap)
        // Drawn after its predecessor into the same target (where the renderer keeps the
        // background it can), the picture is the same as drawn afresh.
        viewer.draw(frames[middle - 1], into: &canvas.bitmap)
        viewer.draw(frames[middle], into: &canvas.bitmap)
        precondition(maxDifference(canvas.bitmap, ourPicture) == 0, "\(sequence.name): the frame drawn after the one before it differs")

        // pixman draws into a target of its own: the renderer's holds the picture it drew last,
        // as the kiosk's does, and builds on it.
        let pixmanTarget = PixmanImage(width: screen.width, height: screen.height)
        /// Ours: the frame drawn, then its changed rows copied; the time the draw ended.
        func ours(_ i: Int) -> Double {
            let rows = viewer.draw(frames[i], into: &canvas.bitmap)
            let drawn = Stopwatch.now()
            // As `run` writes them into the dumb buffer: non-temporal stores (`ScanoutCopy`).
            for range in rows.ranges { scanout.copyRowsForScanout(from: canvas.bitmap, rows: range) }
            return drawn
        }
        func pixman(_ i: Int) { naive.render(frames[i], gridLayer: gridLayers[i], into: pixmanTarget) }
        var oursTimes: [Double] = [], drawTimes: [Double] = [], pixmanTimes: [Double] = []
        for pass in 0...passes {
            for i in 1..<frames.count {
                // The predecessor drawn as the kiosk draws it, after the frame before it: the
                // target then holds frame i - 2, and drawing i - 1 does that frame's work (the
                // target already holds i - 1 from the last timed draw, and drawing it again would
                // do next to nothing, leaving ours to start from pixman's pixels in the cache
                // while pixman starts from its own). Not where the grid goes (the opening's last
                // frame over it): frame i - 2 would draw the grid layer the frames after it let
                // go, which the kiosk does not do.
                if i >= 2 && frames[i - 2].drawsGrid == frames[i - 1].drawsGrid { _ = ours(i - 2) }
                _ = ours(i - 1)
                let t0 = Stopwatch.now()
                let drawn = ours(i)
                let t1 = Stopwatch.now()
                pixman(i - 1)
                let t2 = Stopwatch.now()
                pixman(i)
                let t3 = Stopwatch.now()
                // Pass 0 warms up.
                guard pass > 0 else { continue }
                oursTimes.append((t1 - t0) * 1000)
                drawTimes.append((drawn - t0) * 1000)
                pixmanTimes.append((t3 - t2) * 1000)
            }
        }
        // The times are pass after pass of frames 1..<count.
        let timed = frames.count - 1
        let perFrame = (0..<timed).map { i in
            /// Frame i's median over the passes.
            func median(_ times: [Double]) -> Double {
                Stopwatch.timing(Swift.stride(from: i, to: times.count, by: timed).map { times[$0] }).median
            }
            return (ours: median(oursTimes), draw: median(drawTimes), pixman: median(pixmanTimes))
        }
        return Result(name: sequence.name, frames: frames.count, ours: Stopwatch.timing(oursTimes),
                      oursDraw: Stopwatch.timing(drawTimes), pixman: Stopwatch.timing(pixmanTimes),
                      maxDifference: difference, goal: sequence.goal, perFrame: perFrame)
    }

    // MARK: Output

    /// `--frames`: each timed frame's draw and pixman medians, its background and its photo (the
    /// moving one, else the first page) with the scale it is drawn at from its screen image.
    static func printFrames(_ sequence: Sequence, _ result: Result, viewer: Viewer) {
        for (i, times) in result.perFrame.enumerated() {
            let frame = sequence.frames[i + 1]
            var photo = "no photo"
            if let shown = frame.movingPhoto ?? frame.pages.first {
                let r = shown.rect
                photo = String(format: "photo %.0fx%.0f at %.0f,%.0f", r.width, r.height, r.minX, r.minY)
                if let image = viewer.store.screenImage(shown.index) {
                    // Aspect-fill: the larger of the two scales.
                    let scale = max(r.width / Double(image.width), r.height / Double(image.height))
                    photo += String(format: ", scale %.3f of %dx%d", scale, image.width, image.height)
                }
            }
            print(String(format: "  frame %3d  draw %6.3f  pixman %6.3f  %5.2fx  %@ background alpha %.2f, %@",
                         i + 1, times.draw, times.pixman, times.draw / times.pixman,
                         frame.drawsGrid ? "grid," : "no grid,", frame.backgroundAlpha, photo))
        }
    }

    static let widths = [34, 6, 8, 8, 8, 9, 8, 6, 9, 10, 8, 8]

    static func line(_ cells: [String]) -> String {
        zip(cells, widths).enumerated().map { i, pair in
            let pad = String(repeating: " ", count: max(0, pair.1 - pair.0.count))
            return i == 0 ? pair.0 + pad : pad + pair.0
        }.joined(separator: "  ")
    }

    static func cells(_ r: Result, miss: String) -> [String] {
        func ms(_ v: Double) -> String { String(format: "%.3f", v) }
        // The goal is the frame `simulate` draws: `Viewer.draw`.
        let verdict = r.goal.map { r.drawRatio <= $0 ? "<= \(String(format: "%.1f", $0))x: met" : "<= \(String(format: "%.1f", $0))x: \(miss)" } ?? ""
        return [r.name, "\(r.frames)", ms(r.ours.median), ms(r.ours.p99), ms(r.oursDraw.median), ms(r.pixman.median),
                ms(r.pixman.p99), String(format: "%.2fx", r.ratio), String(format: "%.2fx", r.p99Ratio),
                String(format: "%.2fx", r.drawRatio), "\(r.maxDifference)", verdict]
    }

    static func markdown(_ results: [Result], passes: Int, cpu: Int?, photos: Int, copy: Double,
                         screen: (width: Int, height: Int)) -> String {
        let date = ISO8601DateFormatter().string(from: Date())
        var text = "## Frames of continuous gestures, as `simulate` draws them\n\n"
        text += "Written by `vitrine-bench motion --markdown docs/benchmark.md` (release build), \(date), "
        text += cpu.map { "pinned to CPU \($0). " } ?? "not pinned. "
        text += "A `Viewer` on the \(photos) sample photos at 1920x1080 (default settings: the scene, photo store, captions, "
        text += "the renderer with its grid layer cache and damage rows, as `simulate` and `run` use them) driven at 60 Hz "
        text += "of virtual time by made-up touches: a finger scrolling the grid up 500 px in 0.5 s, the grid coasting after it "
        text += "lifts, a tap opening a photo (the opening zoom), a finger dragging it down 300 px in 1 s and staying down "
        text += "(every frame a new scale and position over the dimmed grid; the background reaches alpha 0 at 200 px). "
        text += "Every frame that shows a new picture is kept. "
        text += "**ours**: `Viewer.draw` of the frame and the copy of the rows it changed into a second 1920x1080 buffer "
        text += "(as `run` copies them into the dumb buffer); **draw**: `Viewer.draw` alone (what `simulate --stats` times), timed in the same run (the draw's end read between the two). "
        text += "**pixman**: the naive composite of the same frame into a target of its own (`NaiveComposite`: the grid layer "
        text += "copied, black at the alpha OVER it as one translucent solid (pixman's `over_n_8888` fast path), "
        text += "the photo bilinear from the same mip level; the plain grid "
        text += "filled and drawn cell by cell). Frame by frame, alternating; each timed frame right after the one before it "
        text += "drawn untimed by the same side, ours after the frame before that, so that the predecessor does its real "
        text += "work (so each side starts from its own pixels in the cache, and ours' changed rows, and the background it "
        text += "keeps, are a real sequence's; the renderer's target is its own, as in the kiosk). \(passes) passes over each "
        text += "sequence; medians and p99 in ms over all frames of all passes. `ratio`: ours (draw + row copy) over pixman; "
        text += "`draw ratio`: the draw alone over pixman, which the goal is about (the frame `simulate` draws); both the "
        text += "sequence's cost, each frame's median over the passes summed (the medians of all frames of a sequence with "
        text += "two kinds of frame, as the opening's over the dimmed grid and over black, fall between the kinds, on unlike frames). `max diff`: the largest per-channel difference "
        text += "of the middle frame. " + memoryNote(copy, screen: screen)
        text += " (A copy is memory-bound on both sides; where it is slow, so is everything that moves a frame's bytes, and "
        text += "the ratios drift towards the bytes each side moves rather than the work it does.)\n\n"
        text += "| sequence | frames | ours median ms | ours p99 | draw median | pixman median | pixman p99 | ratio | p99 ratio | draw ratio | max diff | goal |\n"
        text += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
        for r in results { text += "| " + cells(r, miss: "MISSED").joined(separator: " | ") + " |\n" }
        text += "\nThe same gestures as a recording: `vitrine simulate --size 1920x1080 --photos Samples/photos "
        text += "--replay docs/recordings/motion-bench.evemu --stats` (written by `--record`). "
        text += "Where the time goes (perf, the drag and the opening): the photo's bilinear resample and the dimmed grid, "
        text += "both in AVX2 kernels where the CPU has them (`CBlitterKernels`, chosen at run time, bit for bit the pixels "
        text += "of the 128-bit Swift path, which a Raspberry Pi or a Gemini Lake thin client runs). The drag's shrink (a "
        text += "scale between 1 and 0.68) reads each pixel's pair of neighbours from both source rows, one permute per "
        text += "row and four pixels, and blends them down in one `pmaddubsw` (the pixels as unsigned bytes, the halved "
        text += "weights), then across. The opening's overshoot holds the photo up to 0.8% above its image's size for "
        text += "about half its frames (771x1080 drawn at up to 775x1089): an enlargement from the image itself, each "
        text += "source row interpolated across eight columns at a time (two loads, one `pmaddubsw` per four pixels), "
        text += "two such rows blended down. Timed alone, cache warm or cold alike, the shrink and the enlargement take "
        text += "about 0.7-1.1 ns a pixel on the development host: bound by arithmetic. In these sequences the dim over "
        text += "the cached layer (only outside the opaque photo) takes about half the frame and waits on memory: its "
        text += "reads of the layer, a run on each side of the photo in every row, are what the prefetchers serve "
        text += "worst (the same pixels read from one contiguous run, for measuring only, took 15% off the drag). Where "
        text += "the AVX2 kernel widens them as it reads, the layer is read packed, 3 bytes a pixel (`PackedBitmap`): "
        text += "a quarter fewer bytes, about 10% off the drag and the opening. "
        text += "The scan-out copy is written with non-temporal stores "
        text += "(`ScanoutCopy`, as `run` writes the dumb buffer): the lines written for the display no longer push "
        text += "the layer, photo and picture the next frame reads out of the cache, 8-10% off the drag and the "
        text += "opening. Ours reads the layer and the photo once and writes each pixel once; pixman copies the layer, "
        text += "reads and writes it again for the dim (its `over_n_8888` fast path, in the cache the copy just filled), "
        text += "then draws the photo: its bilinear is slower than ours (1.36 against 0.83 ns a pixel in the drag). "
        text += "Where the background stays (alpha 0 past `max_drag`, the opening's "
        text += "black once opaque) only the pixels the photo leaves are drawn again: the drag's frames past `max_drag` "
        text += "cost about 0.3x of pixman's, those before it, each dimming the whole grid anew, about 0.45x. In the grid "
        text += "scroll, the rows the last frame showed are moved within the target (one memmove) and only the rows "
        text += "scrolled in are drawn from the thumbnails, where pixman draws every cell again. `--frames` prints each "
        text += "frame's medians with what it shows.\n"
        return text
    }
}
