import Blitter
import Config
import Foundation
import Geometry
import Linux
import Logging
import Photos
import PNG
import Scene
import Touch
import Rendering

/// `vitrine-bench startup`: how fast the grid appears, with and without the thumbnail cache on
/// disk, and how much memory browsing takes, over a library of 12 MP photos.
///
/// The library is one synthetic 4000x3000 JPEG (gradients, edges and fine noise, so it costs what a
/// camera photo costs to decode) hard-linked under `--photos` different names in a temporary folder:
/// every name is a different photo to Vitrine (paths are part of every key), but the kernel's page
/// cache holds the one file, so the numbers are decode time, not storage speed.
///
/// The screen is 1920x1080 with `grid.columns` 10, which shows 60 cells (6 rows, the last one cut
/// by the bottom edge).
///
/// (a) first start with an empty disk cache: folder scan, first frame (placeholders), all visible
///     thumbnails decoded; (b) the same again with the disk cache the first start wrote; (c) resident
///     memory while browsing the whole library through the real Viewer in virtual time, waiting for
///     the decoder every frame as `simulate` does before a snapshot; (d) resident memory every 1,000
///     gestures of a deterministic soak at 60 Hz of virtual time, every tenth frame drawn.
public enum StartupBenchmark {
    /// Frames per second of virtual time, as `simulate` runs.
    static let frameRate = 60.0

    struct Options {
        var photoCount = 500
        var gestures = 10_000
        var pagedPhotos = 100
        var screen = Size(width: 1920, height: 1080)
        var columns = 10
        var warmRuns = 3
        /// The library's format: the JPEG converted by the format's own encoder (SPEC §11).
        var format = "jpeg"
        /// A photo file to hard-link instead of the synthetic one (an iPhone HEIC as it comes).
        var photo: String?

        init(arguments: [String]) throws {
            var rest = arguments[...]
            if rest.first == "startup" { rest.removeFirst() }
            while let option = rest.popFirst() {
                if option == "--photo", let value = rest.popFirst() {
                    photo = value
                    format = (value as NSString).pathExtension.lowercased()
                    continue
                }
                if option == "--format", let value = rest.popFirst() {
                    guard FormatBenchmark.formats.contains(where: { $0.fileExtension == value || $0.name.lowercased() == value }) else {
                        throw BenchmarkError("--format takes one of \(FormatBenchmark.formats.map(\.fileExtension).joined(separator: ", "))")
                    }
                    format = value == "jpeg" ? "jpg" : value
                    continue
                }
                guard let value = rest.popFirst(), let number = Int(value), number > 0 else {
                    throw BenchmarkError("\(option) needs a positive whole number")
                }
                switch option {
                case "--photos": photoCount = number
                case "--gestures": gestures = number
                case "--paged": pagedPhotos = number
                case "--columns": columns = number
                case "--warm-runs": warmRuns = number
                default:
                    throw BenchmarkError("unknown option \(option); usage: vitrine-bench startup [--photos N] "
                                         + "[--gestures N] [--paged N] [--columns N] [--warm-runs N] [--format jpg|heic|avif|webp|png] [--photo FILE]")
                }
            }
        }
    }

    struct BenchmarkError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    public static func run(arguments: [String]) throws {
        let options = try Options(arguments: arguments)
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("vitrine-bench-\(getpid())")
        let photoFolder = (root as NSString).appendingPathComponent("photos")
        let cacheFolder = (root as NSString).appendingPathComponent("cache")
        try FileManager.default.createDirectory(atPath: photoFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }

        var logger = Logger(label: "vitrine-bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning

        var settings = Settings()
        settings.photos.directory = photoFolder
        settings.scene.grid.columns = options.columns
        settings.cache.directory = cacheFolder

        print("vitrine-bench startup: \(options.photoCount) photos of 12 MP, screen "
              + "\(Int(options.screen.width))x\(Int(options.screen.height)), grid.columns \(options.columns), "
              + "cache.megabytes \(settings.cache.megabytes)")
        if let photo = options.photo {
            let original = (photoFolder as NSString).appendingPathComponent(".original." + options.format)
            try FileManager.default.copyItem(atPath: photo, toPath: original)
            for i in 1...options.photoCount {
                let name = (photoFolder as NSString).appendingPathComponent(String(format: "IMG_%04d.", i) + options.format)
                try systemCall("link", path: name) { link(original, name) }
            }
            print("library: \(photo) (\(try FileStatus(path: original).size) bytes), hard-linked \(options.photoCount) times")
        } else {
            let made = try makeLibrary(in: photoFolder, count: options.photoCount, format: options.format)
            print(String(format: "library: one 4000x3000 %@ of %.1f MB (made in %.2f s), hard-linked %d times",
                         options.format.uppercased(), Double(made.bytes) / 1e6, made.seconds, options.photoCount))
        }
        print("resident memory before the first start: \(megabytes(ProcessHeap.residentBytes()))")
        print("")

        let cold = try measureStart(settings: settings, screen: options.screen, logger: logger)
        var warm: [StartResult] = []
        for _ in 0..<options.warmRuns {
            warm.append(try measureStart(settings: settings, screen: options.screen, logger: logger))
        }
        let warmMedian = warm.sorted { $0.allVisible < $1.allVisible }[warm.count / 2]

        print("(a, b) start to a full grid                        first start   second start (median of \(warm.count))")
        print(row("scan of the folder (headers)", cold.scan, warmMedian.scan))
        print(row("first frame (placeholders)", cold.firstFrame, warmMedian.firstFrame))
        print(row("first thumbnail shown", cold.firstThumbnail, warmMedian.firstThumbnail))
        print(row("all \(cold.visibleCells) visible thumbnails shown", cold.allVisible, warmMedian.allVisible))
        print("   disk cache: first start wrote \(cold.disk.writes) thumbnails; second start "
              + "\(warmMedian.disk.hits) hits, \(warmMedian.disk.misses) misses; "
              + "warm runs: \(warm.map { String(format: "%.3f s", $0.allVisible) }.joined(separator: ", "))")
        let goal = warmMedian.allVisible < 0.5 ? "met" : "MISSED"
        print(String(format: "   goal: second start < 0.5 s to a full grid of %d: %@", cold.visibleCells, goal))
        print("")

        let limit = settings.cache.megabytes * 1024 * 1024 + 40 * 1024 * 1024
        let browse = try measureBrowse(settings: settings, options: options, logger: logger)
        print("(c) browsing: the grid scrolled to the end and back, then \(browse.paged) photos paged through")
        print("   frames drawn \(browse.frames), decoded pixels held at the end \(megabytes(browse.decodedBytes))")
        print("   resident memory: start \(megabytes(browse.startRSS)), peak \(megabytes(browse.peakRSS)) "
              + "(while \(browse.peakPhase)), end \(megabytes(browse.endRSS))")
        print("   goal: peak < cache.megabytes + 40 MB = \(megabytes(limit)): \(browse.peakRSS < limit ? "met" : "MISSED")")
        print("")

        let soak = try measureSoak(settings: settings, options: options, root: root, logger: logger)
        print("(d) soak: \(soak.gestures) gestures at 60 Hz of virtual time (\(soak.counts)), "
              + String(format: "%.0f s of virtual time in %.0f s", soak.virtualSeconds, soak.seconds))
        print("   resident memory every 1,000 gestures (after the decoder settled):")
        for sample in soak.samples {
            print(String(format: "   %6d gestures  %@", sample.gestures, megabytes(sample.rss)))
        }
        if let first = soak.samples.first, let last = soak.samples.last {
            let growth = last.rss - first.rss
            let spread = (soak.samples.map(\.rss).max() ?? 0) - (soak.samples.map(\.rss).min() ?? 0)
            print("   growth from the first sample to the last: \(signedMegabytes(growth)) (range of all samples \(megabytes(spread)))")
            print("   peak \(megabytes(soak.samples.map(\.rss).max() ?? 0)); goal < \(megabytes(limit)): "
                  + "\((soak.samples.map(\.rss).max() ?? 0) < limit ? "met" : "MISSED")")
        }
    }

    // MARK: - The library

    /// One 12 MP photo, hard-linked `count` times as IMG_0001.jpg ... in `folder`: a JPEG, or that
    /// JPEG in `format` (its extension) made by the format's own encoder.
    static func makeLibrary(in folder: String, count: Int, format: String = "jpg") throws -> (bytes: Int, seconds: Double) {
        let start = now()
        let width = 4000, height = 3000
        var pixels = [UInt32](repeating: 0, count: width * height)
        var noise: UInt32 = 0x1234_5678
        for y in 0..<height {
            for x in 0..<width {
                // xorshift noise of a few levels: sensor grain, which keeps the file camera-sized.
                noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
                let grain = Int(noise & 15) - 8
                let wave = Int(40 * sin(Double(x) * 0.013 + Double(y) * 0.007) + 30 * sin(Double(y) * 0.021))
                let block = ((x / 250) + (y / 250)) % 2 == 0 ? 30 : -30
                let r = 90 + x * 100 / width + wave + grain
                let g = 70 + y * 120 / height + block + grain
                let b = 120 - wave + (x ^ y) % 40 + grain
                pixels[y * width + x] = Pixel.rgb(clamp(r), clamp(g), clamp(b))
            }
        }
        let jpeg = try JPEGEncoder().encode(Bitmap(width: width, height: height, stride: width, pixels: pixels),
                                            quality: 92, subsampling: .s420)
        var original = (folder as NSString).appendingPathComponent(".original.jpg")  // hidden: not a photo
        try AtomicFile.write(jpeg, to: original)
        if format != "jpg" {
            let converted = (folder as NSString).appendingPathComponent(".original.\(format)")
            if format == "png" {
                try PNGEncoder.write(Bitmap(width: width, height: height, stride: width, pixels: pixels), to: converted)
            } else if let encode = FormatBenchmark.formats.first(where: { $0.fileExtension == format })?.encode {
                guard FormatBenchmark.runTool(encode(original, converted)) != nil else {
                    throw BenchmarkError("\(encode(original, converted).joined(separator: " ")) failed (scripts/install-deps installs it)")
                }
            }
            try systemCall("unlink", path: original) { unlink(original) }
            original = converted
        }
        let bytes = try FileStatus(path: original).size
        for i in 1...count {
            let name = (folder as NSString).appendingPathComponent(String(format: "IMG_%04d.\(format)", i))
            try systemCall("link", path: name) { link(original, name) }
        }
        return (bytes, now() - start)
    }

    private static func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }

    // MARK: - (a), (b) Start

    struct StartResult {
        var scan = 0.0, firstFrame = 0.0, firstThumbnail = 0.0, allVisible = 0.0
        var visibleCells = 0
        var disk = ThumbnailDiskCache.Statistics()
    }

    /// A start as `vitrine run` makes it: scan the folder, make the viewer, draw the first frame,
    /// then draw again whenever a decode lands, until every visible cell has its thumbnail.
    static func measureStart(settings: Settings, screen: Size, logger: Logger) throws -> StartResult {
        var result = StartResult()
        let start = now()
        let photos = try PhotoLibrary(scanning: settings.photos.directory, maxMegapixels: settings.photos.maxMegapixels,
                                      logger: logger).items
        result.scan = now() - start
        let decoded = DispatchSemaphore(value: 0)
        let viewer = Viewer(settings: settings, screenSize: screen, items: photos, logger: logger,
                            onDecoded: { decoded.signal() })
        var canvas = Bitmap(width: Int(screen.width), height: Int(screen.height))
        var frame = viewer.frame(at: 0)
        viewer.draw(frame, into: &canvas)
        result.firstFrame = now() - start

        let screenRect = Rect(origin: .zero, size: screen)
        let visible = frame.gridCells.filter { $0.rect.intersection(screenRect) != nil }.map(\.index)
        result.visibleCells = visible.count
        while true {
            _ = decoded.wait(timeout: .now() + 5)
            frame = viewer.frame(at: 0)
            viewer.draw(frame, into: &canvas)
            let shown = visible.filter { viewer.store.thumbnail($0) != nil }.count
            if shown > 0, result.firstThumbnail == 0 { result.firstThumbnail = now() - start }
            if shown == visible.count { break }
            if now() - start > 120 { throw BenchmarkError("the grid was not complete after 120 s") }
        }
        result.allVisible = now() - start
        result.disk = viewer.store.thumbnailCacheStatistics ?? .init()
        return result
    }

    // MARK: - (c) Browsing

    struct BrowseResult {
        var frames = 0, paged = 0
        var startRSS = 0, peakRSS = 0, endRSS = 0, decodedBytes = 0
        var peakPhase = ""
    }

    static func measureBrowse(settings: Settings, options: Options, logger: Logger) throws -> BrowseResult {
        let photos = try PhotoLibrary(scanning: settings.photos.directory, logger: logger).items
        let session = VirtualSession(viewer: Viewer(settings: settings, screenSize: options.screen, items: photos,
                                                    logger: logger, onDecoded: {}))
        var result = BrowseResult()
        result.startRSS = ProcessHeap.residentBytes()
        let h = options.screen.height, w = options.screen.width

        // Down to the end of the grid and back up, a finger's drag at a time, held still before it
        // lifts so the grid does not fling past rows (every row is on screen in some frame).
        session.phase = "scrolling down"
        for direction in [-1.0, 1.0] {
            var last = Double.nan
            for _ in 0..<400 {
                session.drag(from: Point(x: w / 2, y: h / 2 - direction * 0.35 * h),
                             to: Point(x: w / 2, y: h / 2 + direction * 0.35 * h), duration: 0.3, hold: true)
                if session.frame.gridScroll == last { break }
                last = session.frame.gridScroll
            }
            session.phase = "scrolling up"
        }

        // Open the first photo and page through.
        session.phase = "opening a photo"
        if let cell = session.frame.gridCells.first(where: { $0.index == 0 }) {
            session.tap(at: cell.rect.center)
        }
        session.phase = "paging"
        for _ in 0..<options.pagedPhotos where session.frame.mode == .pager {
            session.drag(from: Point(x: 0.85 * w, y: h / 2), to: Point(x: 0.15 * w, y: h / 2), duration: 0.2, hold: false)
            result.paged += 1
        }
        session.phase = "dismissing"
        session.drag(from: Point(x: w / 2, y: 0.4 * h), to: Point(x: w / 2, y: 0.8 * h), duration: 0.4, hold: false)

        result.frames = session.framesDrawn
        result.peakRSS = session.peakRSS
        result.peakPhase = session.peakPhase
        result.endRSS = ProcessHeap.residentBytes()
        result.decodedBytes = session.viewer.store.decodedBytes
        return result
    }

    /// The viewer driven frame by frame in virtual time at 60 Hz, waiting for the decoder before
    /// each frame is drawn, with resident memory sampled after every frame.
    final class VirtualSession {
        let viewer: Viewer
        private(set) var frame: SceneFrame
        private(set) var framesDrawn = 0
        private(set) var peakRSS = 0
        private(set) var peakPhase = ""
        var phase = ""
        private var time = 0.0
        private var canvas: Bitmap

        init(viewer: Viewer) {
            self.viewer = viewer
            canvas = Bitmap(width: Int(viewer.screenSize.width), height: Int(viewer.screenSize.height))
            frame = viewer.frame(at: 0)
        }

        /// Plays `events` (times relative to now), then runs on until the scene is at rest.
        func play(_ events: [SceneInput]) {
            let start = time
            var pending = events[...]
            var restFrames = 0
            while restFrames < 3 {
                time += 1 / frameRate
                while let next = pending.first, start + next.time <= time {
                    pending.removeFirst()
                    viewer.handle(shifted(next, by: start))
                }
                frame = viewer.frame(at: time)
                viewer.store.waitUntilSettled()
                viewer.draw(frame, into: &canvas)
                framesDrawn += 1
                let rss = ProcessHeap.residentBytes()
                if rss > peakRSS { (peakRSS, peakPhase) = (rss, phase) }
                restFrames = pending.isEmpty && !viewer.scene.isAnimating ? restFrames + 1 : 0
            }
        }

        func tap(at p: Point) {
            play(Gesture.tap(at: p, start: 0))
        }

        func drag(from a: Point, to b: Point, duration: Double, hold: Bool) {
            play(Gesture.drag(from: a, to: b, start: 0, duration: duration, hold: hold))
        }

        private func shifted(_ event: SceneInput, by offset: Double) -> SceneInput {
            switch event {
            case .touch(let touch): return .touch(TouchFrame(time: touch.time + offset, contacts: touch.contacts))
            case .back(let time): return .back(time: time + offset)
            }
        }
    }

    // MARK: - (d) Soak

    struct SoakResult {
        var gestures = 0
        var samples: [(gestures: Int, rss: Int)] = []
        var counts = ""
        var seconds = 0.0, virtualSeconds = 0.0
    }

    static func measureSoak(settings: Settings, options: Options, root: String, logger: Logger) throws -> SoakResult {
        let photos = try PhotoLibrary(scanning: settings.photos.directory, logger: logger).items
        let input = SoakInput(screen: options.screen, gestures: options.gestures)
        let viewer = Viewer(settings: settings, screenSize: options.screen, items: photos, logger: logger, onDecoded: {})
        var canvas = Bitmap(width: Int(options.screen.width), height: Int(options.screen.height))
        let start = now()
        // 60 Hz of virtual time, every tenth frame drawn (enough for the renderer's own memory to
        // take part; drawing all 550,000 would take ten minutes); at each sample time the loop waits
        // for the decoder and draws, so every sample is taken with no decode under way.
        var sampleTimes = input.sampleTimes[...]
        var frame = viewer.frame(at: 0)
        var n = 0
        while Double(n) / frameRate <= input.endTime + 1 {
            let t = Double(n) / frameRate
            for event in input.events(through: t, lastFrame: frame) { viewer.handle(event) }
            frame = viewer.frame(at: t)
            var draws = n % 10 == 0
            if let next = sampleTimes.first, next <= t {
                sampleTimes.removeFirst()
                viewer.store.waitUntilSettled()
                draws = true
            }
            if draws { viewer.draw(frame, into: &canvas) }
            n += 1
        }
        var result = SoakResult()
        result.seconds = now() - start
        result.virtualSeconds = input.endTime
        result.gestures = input.gesturesDone
        result.samples = input.samples
        result.counts = input.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return result
    }

    /// Deterministic gestures, one per `slot` seconds, chosen from what the last frame shows: in the
    /// grid taps on a visible cell or flick-scrolls; in the pager swipes, drags down to dismiss,
    /// double taps and Back; during a transition a touch that catches the photo.
    final class SoakInput: ScriptedInput {
        let slot = 0.9
        let gestures: Int
        let screen: Size
        private(set) var gesturesDone = 0
        private(set) var samples: [(gestures: Int, rss: Int)] = []
        private(set) var counts: [String: Int] = [:]
        private var pending: [SceneInput] = []
        private var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var nextSample = 0

        init(screen: Size, gestures: Int) {
            self.screen = screen
            self.gestures = gestures
        }

        var endTime: Double { 0.5 + Double(gestures) * slot }

        /// Every 1,000 gestures (and at the end), just before the next gesture starts.
        var sampleTimes: [Double] {
            stride(from: 1000, through: gestures, by: 1000).map { 0.5 + Double($0) * slot - 0.05 }
        }

        func events(through time: Double, lastFrame: SceneFrame) -> [SceneInput] {
            let times = sampleTimes
            if nextSample < times.count, time > times[nextSample] {
                samples.append((gesturesDone, ProcessHeap.residentBytes()))
                nextSample += 1
            }
            while gesturesDone < gestures, 0.5 + Double(gesturesDone) * slot <= time {
                pending += gesture(at: 0.5 + Double(gesturesDone) * slot, frame: lastFrame)
                gesturesDone += 1
            }
            let due = pending.prefix { $0.time <= time }
            pending.removeFirst(due.count)
            return Array(due)
        }

        private func uniform() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 11) / Double(1 << 53)
        }

        private func gesture(at start: Double, frame: SceneFrame) -> [SceneInput] {
            let w = screen.width, h = screen.height
            let r = uniform()
            func count(_ name: String) { counts[name, default: 0] += 1 }
            switch frame.mode {
            case .grid:
                let screenRect = Rect(origin: .zero, size: screen)
                let cells = frame.gridCells.filter { $0.rect.intersection(screenRect) != nil }
                if r < 0.5, !cells.isEmpty {
                    let cell = cells[min(cells.count - 1, Int(uniform() * Double(cells.count)))]
                    guard let target = cell.rect.intersection(screenRect) else { return [] }
                    count("taps")
                    return Gesture.tap(at: target.center, start: start)
                }
                count("scrolls")
                let up = uniform() < 0.6
                let distance = (0.15 + 0.45 * uniform()) * h
                let y0 = up ? 0.8 * h : 0.2 * h
                return Gesture.drag(from: Point(x: 0.5 * w, y: y0), to: Point(x: 0.5 * w, y: y0 + (up ? -distance : distance)),
                                    start: start, duration: 0.12 + 0.2 * uniform(), hold: false)
            case .pager:
                if r < 0.4 {
                    count("swipes")
                    return Gesture.drag(from: Point(x: 0.85 * w, y: 0.5 * h), to: Point(x: 0.2 * w, y: 0.5 * h),
                                        start: start, duration: 0.2, hold: false)
                } else if r < 0.6 {
                    count("swipes")
                    return Gesture.drag(from: Point(x: 0.15 * w, y: 0.5 * h), to: Point(x: 0.8 * w, y: 0.5 * h),
                                        start: start, duration: 0.2, hold: false)
                } else if r < 0.9 {
                    count("dismiss drags")
                    return Gesture.drag(from: Point(x: 0.5 * w, y: 0.4 * h), to: Point(x: 0.55 * w, y: 0.8 * h),
                                        start: start, duration: 0.35, hold: false)
                } else if r < 0.95 {
                    count("double taps")
                    return Gesture.doubleTap(at: Point(x: 0.5 * w, y: 0.5 * h), start: start)
                } else {
                    count("back keys")
                    return [.back(time: start)]
                }
            case .slideshow:
                count("slideshow touches")
                return Gesture.tap(at: Point(x: 0.5 * w, y: 0.5 * h), start: start)
            case .opening, .closing, .dismissing:
                count("catches")
                return Gesture.tap(at: Point(x: 0.5 * w, y: 0.5 * h), start: start)
            }
        }
    }

    /// Touch sequences as a panel reports them (one sample per 1/120 s), as scripted events.
    enum Gesture {
        static func tap(at p: Point, start: Double) -> [SceneInput] {
            SyntheticGesture.tap(at: p, time: start).map(SceneInput.touch)
        }

        static func doubleTap(at p: Point, start: Double) -> [SceneInput] {
            SyntheticGesture.doubleTap(at: p, time: start).map(SceneInput.touch)
        }

        /// A straight drag at constant speed; with `hold`, the finger rests 0.1 s (12 samples) before
        /// it lifts (no fling), else it lifts while moving.
        static func drag(from a: Point, to b: Point, start: Double, duration: Double, hold: Bool) -> [SceneInput] {
            SyntheticGesture.drag(from: a, to: b, time: start, duration: duration,
                                  end: hold ? .hold(samples: 12, thenLiftAfter: 0.004) : .lift(after: 0.004))
                .map(SceneInput.touch)
        }
    }

    // MARK: - Measuring

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    static func signedMegabytes(_ bytes: Int) -> String {
        String(format: "%+.1f MB", Double(bytes) / 1_048_576)
    }

    private static func row(_ name: String, _ first: Double, _ second: Double) -> String {
        name.padding(toLength: 50, withPad: " ", startingAt: 0)
            + String(format: "%8.3f s   %8.3f s", first, second)
    }
}
