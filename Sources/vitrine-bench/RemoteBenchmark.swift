import Blitter
import Config
import Foundation
import Geometry
import Glibc
import Linux
import Logging
import Photos
import RemoteControl
import RemoteHTTP
import Rendering
import Scene
import RunLoopRules
import Touch

/// `vitrine-bench remote`: does the remote server disturb the frame loop (issue #15)? A drag through
/// the grid (with its momentum) is drawn by the real renderer at 60 Hz, 1920x1080, publishing the
/// run loop's snapshot after every frame as `run` does, in the same process as a `RemoteServer`.
/// Each round draws the whole drag while wrk (Debian's) sends requests to /metrics and /status on
/// loopback, at least N of them (wrk is stopped once the drag is over and the server has answered
/// N), then as many frames while nothing else happens, and compares the frame-time p99 of the two.
///
///     vitrine-bench remote [--requests 10000] [--rounds 10] [--threads 2] [--connections 8] [--samples DIR]
enum RemoteBenchmark {
    /// `a`'s p99 over `b`'s: what the load did to the frames (the HTTP and MQTT benches).
    static func p99Ratio(_ a: FrameStatistics, _ b: FrameStatistics) -> Double {
        (a.percentile(99) ?? 0) / max(b.percentile(99) ?? 1, 1e-9)
    }

    /// The kiosk the remote benches drive: a `Viewer` on the sample photos at 1920x1080 with the
    /// default settings, and the bench's logger (warnings only).
    static func viewer(samples: String) throws -> (viewer: Viewer, photos: [LibraryItem], logger: Logger) {
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        var settings = Settings()
        settings.photos.directory = samples
        let photos = try PhotoLibrary(scanning: samples, logger: logger).items
        let viewer = Viewer(settings: settings, screenSize: Size(width: 1920, height: 1080), items: photos, logger: logger,
                            onDecoded: {})
        return (viewer, photos, logger)
    }

    static func run(arguments: [String]) throws {
        setvbuf(stdout, nil, _IOLBF, 0)
        let requests = Int(option("--requests", in: arguments) ?? "") ?? 10_000
        let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 10
        let connections = Int(option("--connections", in: arguments) ?? "") ?? 8
        let threads = Int(option("--threads", in: arguments) ?? "") ?? 2
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let samples = option("--samples", in: arguments) ?? packageRoot + "/Samples/photos"
        guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("wrk is not installed (Debian's wrk; scripts/install-deps installs it)")
        }

        let (viewer, photos, logger) = try RemoteBenchmark.viewer(samples: samples)
        let frames = dragFrames(viewer)
        print("vitrine-bench remote: a drag through the grid, \(frames.count) frames at 60 Hz, 1920x1080, "
              + "\(photos.count) photos; \(rounds) rounds of \(requests) wrk requests (\(threads) threads, \(connections) connections) "
              + "to /metrics and /status")

        let state = RemoteState(version: "bench", wake: {})
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: "/nonexistent", state: state, logger: logger)
        defer { server.stop() }
        let deadline = Date().addingTimeInterval(10)
        while server.port == nil, Date() < deadline { usleep(10_000) }
        guard let port = server.port else { throw BenchError("the server did not start") }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-bench-wrk-\(getpid()).lua")
        try AtomicFile.write(Array(wrkScript.utf8), to: script.path)
        defer { try? FileManager.default.removeItem(at: script) }
        let url = "http://127.0.0.1:\(port)/"

        var loop = FrameLoop(viewer: viewer, state: state)
        // Warm-up: caches, the server's threads (one short wrk run), the renderer's first frames.
        _ = loop.draw(frames, while: { false }, atLeast: frames.count)
        _ = try runWrk(wrk, script: script.path, url: url, threads: threads, connections: connections, requests: 2000, state: state,
                       alongside: &loop, frames: frames)

        var quiet = FrameStatistics(), loaded = FrameStatistics()
        var quietCPU = FrameStatistics(), loadedCPU = FrameStatistics()
        var roundRatios: [Double] = []
        for round in 1...rounds {
            // Every other round starts with the quiet part, so that neither always follows the other.
            var quietRound = round % 2 == 0 ? loop.draw(frames, while: { false }, atLeast: frames.count) : Round()
            let result = try runWrk(wrk, script: script.path, url: url, threads: threads, connections: connections, requests: requests,
                                    state: state, alongside: &loop, frames: frames)
            let loadedRound = result.frames
            // As many frames with the server idle.
            if round % 2 == 1 { quietRound = loop.draw(frames, while: { false }, atLeast: loadedRound.framesDrawn) }
            for time in loadedRound.times { loaded.record(composeTime: time, missedVblanks: 0) }
            for time in quietRound.times { quiet.record(composeTime: time, missedVblanks: 0) }
            for time in loadedRound.cpuTimes { loadedCPU.record(composeTime: time, missedVblanks: 0) }
            for time in quietRound.cpuTimes { quietCPU.record(composeTime: time, missedVblanks: 0) }
            roundRatios.append(Round.p99(loadedRound.times) / max(Round.p99(quietRound.times), 1e-9))
            print(String(format: "round %d: %@ in %.2f s; frames %d, p99 quiet %.2f ms, with wrk %.2f ms",
                         round, result.summary, result.seconds, loadedRound.framesDrawn,
                         Round.p99(quietRound.times) * 1000, Round.p99(loadedRound.times) * 1000))
        }
        let wall = p99Ratio(loaded, quiet), cpu = p99Ratio(loadedCPU, quietCPU)
        let median = roundRatios.sorted()[roundRatios.count / 2]
        print("quiet:     \(quiet.drawSummary)")
        print("with wrk:  \(loaded.drawSummary)")
        print("the frame thread's CPU time (CLOCK_THREAD_CPUTIME_ID: without the time other threads and processes "
              + "took the core from it):")
        print("quiet:     \(quietCPU.drawSummary)")
        print("with wrk:  \(loadedCPU.drawSummary)")
        print(String(format: "frame-time p99 with wrk / without: %.3f (%+.1f%%; goal at most +10%%); median of the "
                     + "rounds' ratios %.3f; CPU time p99 ratio %.3f", wall, (wall - 1) * 100, median, cpu))
    }

    /// A finger drags the grid up 600 px in 0.5 s and lets go: the drag, then its deceleration,
    /// sampled at 60 Hz with every photo it shows decoded.
    static func dragFrames(_ viewer: Viewer) -> [SceneFrame] {
        let touches = SyntheticGesture.drag(from: Point(x: 960, y: 900), to: Point(x: 960, y: 300), time: 0.1,
                                            duration: 0.5, end: .lift(after: 0.01))
        var pending = touches[...]
        var frames: [SceneFrame] = []
        var n = 0
        while true {
            let t = Double(n) / 60
            while let touch = pending.first, touch.time <= t {
                viewer.handle(.touch(touch))
                pending = pending.dropFirst()
            }
            let frame = viewer.frame(at: t)
            viewer.store.waitUntilSettled()
            frames.append(frame)
            n += 1
            if pending.isEmpty, !viewer.scene.isAnimating, n > 30 || t > 10 { break }
        }
        return frames
    }

    /// Each wrk connection alternates /metrics and /status.
    static let wrkScript = """
        local paths = {"/metrics", "/status"}
        local sent = 0
        request = function()
          sent = sent + 1
          return wrk.format("GET", paths[sent % 2 + 1])
        end
        """

    struct WrkResult {
        var summary: String
        var seconds: Double
        var frames: FrameLoop.Round
    }

    /// Starts wrk and draws the drag over and over until the server has answered `requests` more
    /// requests; then wrk is stopped (SIGINT: it prints its summary). wrk's own `-d` only caps it.
    static func runWrk(_ wrk: String, script: String, url: String, threads: Int, connections: Int, requests: Int,
                       state: RemoteState,
                       alongside loop: inout FrameLoop, frames: [SceneFrame]) throws -> WrkResult {
        let process = Process()
        // wrk stands for a client on another machine: on the kiosk's own cores it runs at nice 19,
        // so that what it costs to make the load is not counted as what the server costs.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        process.arguments = ["-n", "19", wrk, "-t\(threads)", "-c\(connections)", "-d600s", "-s", script, url]
        let target = state.requestsAnswered + requests
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let start = Date()
        try process.run()
        // At least the whole drag, and at least `requests` answered.
        let round = loop.draw(frames, while: { process.isRunning && state.requestsAnswered < target },
                              atLeast: frames.count)
        let seconds = Date().timeIntervalSince(start)
        process.interrupt()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summary = text.split(separator: "\n").first { $0.contains("requests in") }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "wrk: \(text)"
        let errors = text.split(separator: "\n").filter { $0.contains("Non-2xx") || $0.contains("Socket errors") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let answered = state.requestsAnswered - (target - requests)
        return WrkResult(summary: (["server answered \(answered); wrk: \(summary)"] + errors).joined(separator: "; "),
                         seconds: seconds, frames: round)
    }

    /// The frame path of `run`, paced at 60 Hz: draw, then publish the snapshot.
    struct FrameLoop {
        struct Round {
            /// Wall-clock time of each frame (drawn and published), and the frame thread's CPU time.
            var times: [Double] = []
            var cpuTimes: [Double] = []
            var framesDrawn: Int { times.count }

            static func p99(_ times: [Double]) -> Double {
                var statistics = FrameStatistics()
                for time in times { statistics.record(composeTime: time, missedVblanks: 0) }
                return statistics.percentile(99) ?? 0
            }
        }

        let viewer: Viewer
        let state: RemoteState
        var canvas = Bitmap(width: 1920, height: 1080)
        var histogram = DurationHistogram(bounds: DurationHistogram.frameTimeBounds)
        var drawn = 0
        /// Takes the queued actions after each frame, as `run` does (and drops them): for a
        /// transport that queues actions (MQTT's commands), so that its queue never stays full.
        var takesActions = false
        var actionsTaken = 0

        init(viewer: Viewer, state: RemoteState) {
            self.viewer = viewer
            self.state = state
        }

        static func threadCPUTime() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        }

        /// Draws the frames in a loop while `condition` holds and until at least `minimum` are drawn.
        mutating func draw(_ frames: [SceneFrame], while condition: () -> Bool, atLeast minimum: Int) -> Round {
            var round = Round()
            var next = Stopwatch.now()
            var index = 0
            while condition() || round.framesDrawn < minimum {
                let start = Stopwatch.now(), startCPU = Self.threadCPUTime()
                viewer.draw(frames[index % frames.count], into: &canvas)
                drawn += 1
                let composed = Stopwatch.now() - start
                histogram.record(composed)
                var snapshot = RemoteSnapshot(version: "bench")
                snapshot.state = .showing
                snapshot.framesDrawn = drawn
                snapshot.frameTimeBuckets = histogram.cumulative
                snapshot.frameTimeSum = histogram.sum
                snapshot.photoCount = viewer.store.items.count
                snapshot.decodedBytes = viewer.store.decodedBytes
                state.publish(snapshot)
                if takesActions { actionsTaken += state.takeActions().count }
                round.times.append(Stopwatch.now() - start)
                round.cpuTimes.append(Self.threadCPUTime() - startCPU)
                index += 1
                next += 1.0 / 60
                let wait = next - Stopwatch.now()
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else { next = Stopwatch.now() }
            }
            return round
        }
    }

    typealias Round = FrameLoop.Round

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
