import Config
import Foundation
import Geometry
import Logging
import TestSupport
import Testing
import Touch
@testable import VitrineApp

/// SPEC §13 in `simulate`: a recording replayed at 60 Hz of virtual time; each touch frame that
/// changes the picture is shown by the frame sampled at the next tick, so its latency (touch to
/// that tick's vblank) is under one refresh period.
@Suite struct LatencySimulateTests {
    static let screen = Size(width: 800, height: 480)

    /// A drag down the grid at 120 Hz (the second sample lands between two ticks), written as an
    /// evemu recording; returns its path.
    static func dragRecording(in folder: String) throws -> (path: String, frames: [TouchFrame]) {
        let frames = SyntheticGesture.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 400), time: 0.5,
                                           duration: 0.5, end: .lift(after: 0.02))
        let path = folder + "/drag.evemu"
        let text = EvemuWriter.touchscreen(name: "Vitrine synthetic touchscreen", screen: screen, frames: frames,
                                           comment: "Synthetic (SyntheticGesture): a drag, for LatencySimulateTests")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, frames)
    }

    @Test func everyPictureChangingTouchIsShownWithinOnePeriod() throws {
        let out = try TestPaths.temporaryDirectory("latency")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (path, frames) = try Self.dragRecording(in: out)
        var settings = Settings()
        settings.photos.directory = TestPaths.samplePhotos
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let photos = try PhotoFolder.scan(settings.photos, logger: logger)
        let replay = try ReplayInput(path: path, screenSize: Self.screen, input: settings.input, display: settings.display)
        let outcome = try Simulator.simulate(settings: settings, screenSize: Self.screen, items: photos, input: replay,
                                             duration: 2, snapshots: [], outputDirectory: out, tracePath: nil,
                                             logger: logger)
        let latencies = outcome.statistics.latencies.values
        // The frames that move the grid: every sample once the finger is past the tap slop (the
        // touch-down, the samples inside the slop and the lift change nothing at their time).
        let down = try #require(frames.first?.contacts.first?.position)
        let moving = frames.filter { frame in
            frame.contacts.first.map { $0.position.distance(to: down) > settings.scene.gestures.tapSlop } ?? false
        }
        #expect(latencies.count == moving.count, "\(latencies.count) latencies, \(moving.count) moves")
        for latency in latencies {
            #expect(latency >= 0 && latency < 1 / Simulator.frameRate, "\(latency)")
        }
    }

    /// `simulate --stats` ends with the latency: with the drag, p50 and p99 under one period;
    /// without a touch, "latency none".
    @Test func statsEndWithTheLatency() throws {
        let out = try TestPaths.temporaryDirectory("latency-stats")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (path, _) = try Self.dragRecording(in: out)
        let result = try ProcessResult.run(["simulate", "--size", "800x480", "--photos", TestPaths.samplePhotos,
                                            "--replay", path, "--duration", "2", "--stats"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        let match = try #require(line.firstMatch(of: #/, latency p50 (\d+\.\d) ms, p99 (\d+\.\d) ms$/#), "\(line)")
        #expect(line.hasPrefix("frames "), "\(line)")
        #expect(Double(match.1)! > 0 && Double(match.1)! <= Double(match.2)!, "\(line)")
        // One period, 16.67 ms, as the line rounds it.
        #expect(Double(match.2)! <= (10000 / Simulator.frameRate).rounded() / 10, "\(line)")
    }
}
