import Blitter
import Clips
import Config
import Foundation
import Geometry
import Logging
import Photos
import TestSupport
import Testing
import Touch
@testable import VitrineApp

/// Snapshots of a real clip playing in `simulate` show exactly the frame SPEC §12 names: the one
/// whose presentation time (ffprobe's) is the latest at or before the time since the clip started,
/// as ffmpeg itself decodes it at the size the page shows it.
@Suite(.serialized) struct ClipSnapshotTests {
    static let clip = TestPaths.root.appendingPathComponent("Tests/ClipsTests/Clips/h264-30fps.mp4").path

    /// The clip as the library lists it (by hand: the library's own clip items are another branch's).
    static func item(_ path: String) throws -> LibraryItem {
        let info = try ClipReader.info(path: path)
        let picture = PhotoInfo(path: path, fileSize: 1, modified: Date(timeIntervalSince1970: 0), format: "clip",
                                storedSize: ImageSize(width: info.displayWidth, height: info.displayHeight),
                                orientation: .normal, clip: info)
        return LibraryItem(kind: .clip(info), picture: picture)
    }

    /// ffprobe's presentation times of the clip's frames, from the first.
    static func frameTimes(_ path: String) throws -> [Double] {
        let result = try ProcessResult.run(["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                                            "-of", "csv=p=0", path], executable: "/usr/bin/ffprobe")
        let times = result.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        return times.map { $0 - (times.first ?? 0) }
    }

    /// Frame `index` of the clip as ffmpeg decodes it, scaled (bilinear, as the reader) to `width` x `height`.
    static func ffmpegFrame(_ path: String, index: Int, width: Int, height: Int) throws -> Bitmap {
        let output = NSTemporaryDirectory() + "vitrine-clip-snapshot-\(getpid())-\(index).raw"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try ProcessResult.run(["-v", "error", "-threads", "1", "-i", path, "-sws_flags", "bilinear",
                                            "-vf", "select=eq(n\\,\(index)),scale=\(width):\(height)", "-frames:v", "1",
                                            "-pix_fmt", "bgr0", "-f", "rawvideo", "-y", output], executable: "/usr/bin/ffmpeg")
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        var bitmap = Bitmap(width: width, height: height)
        bitmap.pixels.withUnsafeMutableBytes { $0.copyBytes(from: bytes.prefix(width * height * 4)) }
        return bitmap
    }

    /// The largest difference of any channel of any pixel, and the mean.
    static func difference(_ a: Bitmap, _ b: Bitmap) -> (largest: Int, mean: Double) {
        var largest = 0, total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for d in [Int(Pixel.red(p)) - Int(Pixel.red(q)), Int(Pixel.green(p)) - Int(Pixel.green(q)),
                          Int(Pixel.blue(p)) - Int(Pixel.blue(q))] {
                    largest = max(largest, abs(d))
                    total += abs(d)
                }
            }
        }
        return (largest, Double(total) / Double(3 * a.width * a.height))
    }

    /// Opens the clip with a tap and takes snapshots at `times`; checks each against ffmpeg's frame.
    func check(screen: Size, times: [Double]) throws {
        let out = try TestPaths.temporaryDirectory("clip-snapshots")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        // The first cell of the grid (four columns by default).
        let tap = SyntheticGesture.tap(at: Point(x: screen.width / 8, y: screen.width / 8), time: 0.5)
        let outcome = try Simulator.simulate(settings: Settings(), screenSize: screen, items: [try Self.item(Self.clip)],
                                             input: ClipSimulateTests.Script(tap), duration: times.max()! + 0.1,
                                             snapshots: times.map { ($0, String(format: "s-%.3f", $0)) },
                                             outputDirectory: out, tracePath: out + "/trace.jsonl", logger: logger)
        let lines = try String(contentsOfFile: out + "/trace.jsonl", encoding: .utf8).split(separator: "\n")
        let clips = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }.map { $0["clip"] as? [String: Any] }
        let start = Double(try #require(clips.firstIndex { $0 != nil })) / 60
        let pts = try Self.frameTimes(Self.clip)
        let duration = try ClipReader.info(path: Self.clip).duration
        for (path, t) in zip(outcome.snapshots, times) {
            // SPEC §12: the latest presentation time at or before t - start, modulo the duration.
            let elapsed = (t - start).truncatingRemainder(dividingBy: duration)
            let expected = try #require(pts.lastIndex { $0 <= elapsed + 1e-6 })
            let traced = try #require(clips[Int((t * 60).rounded())]?["frame"] as? Int)
            #expect(traced == expected, "t = \(t)")
            let snapshot = try PNGTestDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            let page = Self.fit(320, 240, in: screen)
            var shown = Bitmap(width: page.width, height: page.height)
            shown.copy(from: snapshot, sourceRect: PixelRect(x: (Int(screen.width) - page.width) / 2,
                                                             y: (Int(screen.height) - page.height) / 2,
                                                             width: page.width, height: page.height), to: (0, 0))
            let same = Self.difference(shown, try Self.ffmpegFrame(Self.clip, index: expected, width: page.width, height: page.height))
            let neighbour = Self.difference(shown, try Self.ffmpegFrame(Self.clip, index: expected + 1, width: page.width, height: page.height))
            print("clip snapshot \(Int(screen.width))x\(Int(screen.height)) t=\(t): frame \(expected), largest difference \(same.largest), mean \(same.mean); next frame's mean \(neighbour.mean)")
            // swscale's conversion in both, the same filter: within rounding.
            #expect(same.largest <= 2 && same.mean < 0.5, "t = \(t): \(same)")
            #expect(neighbour.mean > 4 * max(same.mean, 0.1), "t = \(t)")
        }
    }

    static func fit(_ width: Int, _ height: Int, in screen: Size) -> (width: Int, height: Int) {
        let size = ImageSize(width: width, height: height).fitting(in: ImageSize(width: Int(screen.width), height: Int(screen.height)))
        return (min(size.width, width), min(size.height, height))
    }

    @Test func atTheClipsOwnSizeEachSnapshotIsFFmpegsFrame() throws {
        try check(screen: Size(width: 320, height: 240), times: [1.5, 2.2, 2.95])
    }

    @Test func onASmallerScreenEachSnapshotIsFFmpegsFrameScaledTheSameWay() throws {
        try check(screen: Size(width: 160, height: 120), times: [1.4, 1.9])
    }
}
