import Blitter
import Config
import Foundation
import Geometry
import Glibc
import Logging
import Photos
import Remote
import Rendering
import Scene
import RunLoopRules
import Touch

/// `vitrine-bench remote`: does the remote server disturb the frame loop (issue #15)? A drag through
/// the grid (with its momentum) is drawn by the real renderer at 60 Hz, 1920x1080, publishing the
/// run loop's snapshot after every frame as `run` does, in the same process as a `RemoteServer`.
/// Each round draws it while nothing else happens, then while wrk (Debian's) sends N requests to
/// /metrics and /status on loopback, and compares the frame-time p99 of the two.
///
///     vitrine-bench remote [--requests 10000] [--rounds 5] [--connections 8] [--samples DIR]
enum RemoteBenchmark {
    static func run(arguments: [String]) throws {
        func option(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        let requests = Int(option("--requests") ?? "") ?? 10_000
        let rounds = Int(option("--rounds") ?? "") ?? 5
        let connections = Int(option("--connections") ?? "") ?? 8
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let samples = option("--samples") ?? packageRoot + "/Samples/photos"
        guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("wrk is not installed (Debian's wrk; scripts/install-deps installs it)")
        }

        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        var settings = Settings()
        settings.photos.directory = samples
        let screen = Size(width: 1920, height: 1080)
        let photos = try PhotoLibrary(scanning: samples, logger: logger).photos
        let viewer = Viewer(settings: settings, screenSize: screen, photos: photos, logger: logger, onDecoded: {})
        let frames = dragFrames(viewer)
        print("vitrine-bench remote: a drag through the grid, \(frames.count) frames at 60 Hz, 1920x1080, "
              + "\(photos.count) photos; \(rounds) rounds of \(requests) wrk requests (\(connections) connections) "
              + "to /metrics and /status")

        let state = RemoteState(version: "bench", wake: {})
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: "/nonexistent", state: state, logger: logger)
        defer { server.stop() }
        let deadline = Date().addingTimeInterval(10)
        while server.port == nil, Date() < deadline { usleep(10_000) }
        guard let port = server.port else { throw BenchError("the server did not start") }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-bench-wrk-\(getpid()).lua")
        try wrkScript(requestsPerThread: requests / 2).write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let url = "http://127.0.0.1:\(port)/"

        var loop = FrameLoop(viewer: viewer, state: state)
        // Warm-up: caches, the server's threads (one short wrk run), the renderer's first frames.
        loop.draw(frames, while: { false }, atLeast: frames.count)
        _ = try runWrk(wrk, script: script.path, url: url, connections: connections, seconds: 1, alongside: &loop, frames: frames)

        var quiet = FrameStatistics(), loaded = FrameStatistics()
        for round in 1...rounds {
            let result = try runWrk(wrk, script: script.path, url: url, connections: connections, seconds: 120,
                                    alongside: &loop, frames: frames)
            let loadedRound = result.frames
            // The same number of frames with the server idle, right after.
            let quietRound = loop.draw(frames, while: { false }, atLeast: loadedRound.framesDrawn)
            for time in loadedRound.times { loaded.record(composeTime: time, missedVblanks: 0) }
            for time in quietRound.times { quiet.record(composeTime: time, missedVblanks: 0) }
            print(String(format: "round %d: %@ in %.2f s; frames %d, p99 quiet %.2f ms, with wrk %.2f ms",
                         round, result.summary, result.seconds, loadedRound.framesDrawn,
                         quietRound.p99 * 1000, loadedRound.p99 * 1000))
        }
        let ratio = (loaded.percentile(99) ?? 0) / max(quiet.percentile(99) ?? 1, 1e-9)
        print("quiet:     \(quiet.drawSummary)")
        print("with wrk:  \(loaded.drawSummary)")
        print(String(format: "frame-time p99 with wrk / without: %.3f (%+.1f%%; goal at most +10%%)", ratio, (ratio - 1) * 100))
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

    /// Each wrk thread alternates /metrics and /status and stops after `requestsPerThread`.
    static func wrkScript(requestsPerThread: Int) -> String {
        """
        local paths = {"/metrics", "/status"}
        local sent = 0
        request = function()
          sent = sent + 1
          return wrk.format("GET", paths[sent % 2 + 1])
        end
        response = function(status, headers, body)
          if sent >= \(requestsPerThread) then wrk.thread:stop() end
        end
        """
    }

    struct WrkResult {
        var summary: String
        var seconds: Double
        var frames: FrameLoop.Round
    }

    /// Starts wrk and draws the drag over and over until it exits.
    static func runWrk(_ wrk: String, script: String, url: String, connections: Int, seconds: Int,
                       alongside loop: inout FrameLoop, frames: [SceneFrame]) throws -> WrkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "-s", script, url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let start = Date()
        try process.run()
        let round = loop.draw(frames, while: { process.isRunning }, atLeast: 0)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let requests = text.split(separator: "\n").first { $0.contains("requests in") }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "wrk: \(text)"
        let errors = text.split(separator: "\n").filter { $0.contains("Non-2xx") || $0.contains("Socket errors") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return WrkResult(summary: ([requests] + errors).joined(separator: "; "), seconds: Date().timeIntervalSince(start),
                         frames: round)
    }

    /// The frame path of `run`, paced at 60 Hz: draw, then publish the snapshot.
    struct FrameLoop {
        struct Round {
            var times: [Double] = []
            var framesDrawn: Int { times.count }
            var p99: Double {
                var statistics = FrameStatistics()
                for time in times { statistics.record(composeTime: time, missedVblanks: 0) }
                return statistics.percentile(99) ?? 0
            }
        }

        let viewer: Viewer
        let state: RemoteState
        var canvas = Bitmap(width: 1920, height: 1080)
        var histogram = FrameTimeHistogram()
        var drawn = 0

        init(viewer: Viewer, state: RemoteState) {
            self.viewer = viewer
            self.state = state
        }

        /// Draws the frames in a loop while `condition` holds and until at least `minimum` are drawn.
        mutating func draw(_ frames: [SceneFrame], while condition: () -> Bool, atLeast minimum: Int) -> Round {
            var round = Round()
            var next = Stopwatch.now()
            var index = 0
            while condition() || round.framesDrawn < minimum {
                let start = Stopwatch.now()
                viewer.draw(frames[index % frames.count], into: &canvas)
                drawn += 1
                let composed = Stopwatch.now() - start
                histogram.record(composed)
                var snapshot = RemoteSnapshot(version: "bench")
                snapshot.state = .showing
                snapshot.framesDrawn = drawn
                snapshot.frameTimeBuckets = histogram.cumulative
                snapshot.frameTimeSum = histogram.sum
                snapshot.photoCount = viewer.store.photos.count
                snapshot.decodedBytes = viewer.store.decodedBytes
                state.publish(snapshot)
                round.times.append(Stopwatch.now() - start)
                index += 1
                next += 1.0 / 60
                let wait = next - Stopwatch.now()
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else { next = Stopwatch.now() }
            }
            return round
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
