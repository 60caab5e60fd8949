import Blitter
import Config
import Foundation
import Geometry
import Logging
import Photos
import Scene
import TestSupport
import Testing
import Touch
@testable import VitrineApp

/// `simulate` plays clips in virtual time, deterministically (SPEC §12): each frame shows the clip
/// frame whose time is the latest at or before the time since the clip started, and the trace's
/// "clip" says which. Frames come from plain values here (ClipSnapshotTests: a real clip).
@Suite struct ClipSimulateTests {
    /// Touch frames in order, as a recording would give them; the first tap lands on the first
    /// grid cell of the first frame asked about.
    final class Script: ScriptedInput {
        var frames: [TouchFrame]
        let endTime: Double

        init(_ frames: [TouchFrame]) {
            self.frames = frames
            endTime = frames.last?.time ?? 0
        }

        func events(through time: Double, lastFrame: SceneFrame) -> [SceneInput] {
            let due = frames.prefix { $0.time <= time + 1e-9 }
            frames.removeFirst(due.count)
            return due.map { .touch($0) }
        }
    }

    struct Line {
        var t: Double
        var mode: String
        var clip: (time: Double, frame: Int)?
    }

    static let screen = Size(width: 320, height: 200)

    /// Simulates `items` with `input` for `duration` s; the trace and the snapshots asked for.
    static func simulate(_ items: [LibraryItem], input: [TouchFrame], duration: Double, snapshots: [Double] = [],
                         frames: Int = 45, settings: Settings = Settings()) throws -> (trace: [Line], snapshots: [Bitmap]) {
        let out = try TestPaths.temporaryDirectory("clips")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let outcome = try Simulator.simulate(settings: settings, screenSize: screen, items: items, input: Script(input),
                                             duration: duration, snapshots: snapshots.map { ($0, String(format: "s-%.3f", $0)) },
                                             outputDirectory: out, tracePath: out + "/trace.jsonl", logger: logger,
                                             clipSources: { _ in (FakeClipSource(count: frames, fps: 30, width: 160, height: 90), nil) })
        let text = try String(contentsOfFile: out + "/trace.jsonl", encoding: .utf8)
        let trace = try text.split(separator: "\n").enumerated().map { n, line -> Line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object.keys.contains("clip"))
            let clip = (object["clip"] as? [String: Any]).map { ($0["time"] as! Double, $0["frame"] as! Int) }
            return Line(t: Double(n) / 60, mode: object["mode"] as! String, clip: clip)
        }
        let pictures = try outcome.snapshots.map { try PNGTestDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) }
        return (trace, pictures)
    }

    /// The first cell of a 320-wide grid with the default settings, where the tap lands.
    static let firstCell = Point(x: 40, y: 40)

    @Test func eachFrameShowsTheClipFrameDueAtItsTimeAndTheTraceSaysWhich() throws {
        let items = [FakeClipSource.item("clip", count: 45, fps: 30, width: 160, height: 90)]
        let tap = SyntheticGesture.tap(at: Self.firstCell, time: 0.5)
        let (trace, pictures) = try Self.simulate(items, input: tap, duration: 3.5, snapshots: [2.0, 3.0])
        let playing = trace.filter { $0.clip != nil }
        let start = try #require(playing.first).t
        #expect(trace.filter { $0.t < start }.allSatisfy { $0.clip == nil })
        // It starts with the opening (the tap's lift) and never stops while the page is open.
        #expect(start > 0.5 && start < 0.7)
        #expect(playing.count == trace.count - trace.firstIndex { $0.clip != nil }!)
        for line in playing {
            // 45 frames of 1.5 s, looping: the latest frame at or before the time since the start.
            let elapsed = (line.t - start).truncatingRemainder(dividingBy: 1.5)
            let expected = Int((elapsed * 30 + 1e-6).rounded(.down)) % 45
            #expect(line.clip?.frame == expected, "t = \(line.t)")
            #expect(abs(line.clip!.time - elapsed) < 2e-4 || abs(line.clip!.time - elapsed) > 1.4, "t = \(line.t)")
        }
        // The snapshots show exactly that frame (the page is 320x180 in the middle of the screen).
        for (picture, t) in zip(pictures, [2.0, 3.0]) {
            let frame = try #require(trace.first { abs($0.t - t) < 1e-9 }?.clip?.frame)
            #expect(picture[160, 100] == FakeClipSource.colour(frame), "t = \(t)")
        }
    }

    @Test func theSameRunTwiceGivesTheSameTrace() throws {
        let items = [FakeClipSource.item("clip", count: 45, fps: 30, width: 160, height: 90)]
        let tap = SyntheticGesture.tap(at: Self.firstCell, time: 0.5)
        let a = try Self.simulate(items, input: tap, duration: 2).trace
        let b = try Self.simulate(items, input: tap, duration: 2).trace
        #expect(a.map { "\($0.mode) \($0.clip.map { "\($0.frame) \($0.time)" } ?? "-")" }
                == b.map { "\($0.mode) \($0.clip.map { "\($0.frame) \($0.time)" } ?? "-")" })
    }

    @Test func theDismissDragCarriesThePlayingClipBackIntoTheGrid() throws {
        let items = [FakeClipSource.item("clip", count: 45, fps: 30, width: 160, height: 90)]
        let tap = SyntheticGesture.tap(at: Self.firstCell, time: 0.5)
        let drag = SyntheticGesture.drag(from: Point(x: 160, y: 80), to: Point(x: 170, y: 190), time: 1.5, duration: 0.3,
                                         end: .lift(after: 0.016))
        let (trace, _) = try Self.simulate(items, input: tap + drag, duration: 3)
        let dismissing = trace.filter { $0.mode == "dismissing" }
        #expect(dismissing.count > 20)
        // The carried picture plays on, frame after frame, until the grid.
        #expect(dismissing.allSatisfy { $0.clip != nil })
        #expect(Set(dismissing.compactMap { $0.clip?.frame }).count > 10)
        #expect(try #require(trace.last).mode == "grid" && trace.last?.clip == nil)
    }
}
