import Blitter
import Foundation
import TestSupport

/// The test clips (Clips/, see its ATTRIBUTION.md) and what ffmpeg's own tools say about them:
/// ffprobe's values and ffmpeg's frames, the references the reader is checked against.
enum ClipTestFiles {
    static let folder = TestPaths.root.appendingPathComponent("Tests/ClipsTests/Clips").path

    static func path(_ name: String) -> String { folder + "/" + name }

    /// The Live Photo's motion part (CC-BY-4.0, Rhet Turnbull): HEVC 1920x1440, turned 90 clockwise.
    static let livePhotoMovie = path("rt_test_live.mov")

    /// `ffprobe -show_entries` of the first video stream, key=value lines flattened.
    static func probe(_ path: String, _ entries: String) throws -> [String: String] {
        let result = try ProcessResult.run(["-v", "error", "-select_streams", "v:0", "-show_entries", entries,
                                            "-of", "default=noprint_wrappers=1", path], executable: "/usr/bin/ffprobe")
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, values[String(parts[0])] == nil { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }

    /// The presentation times (seconds) of the video frames, in presentation order, from the first.
    static func frameTimes(_ path: String) throws -> [Double] {
        let result = try ProcessResult.run(["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                                            "-of", "csv=p=0", path], executable: "/usr/bin/ffprobe")
        let times = result.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
        guard let first = times.first else { return [] }
        return times.map { $0 - first }
    }

    /// ffmpeg's own frames of `path` at `width` x `height`, upright (its autorotate turns by the
    /// display matrix after the scale, as the reader does), with the same swscale filter
    /// (bilinear), as XRGB8888 bitmaps: the first `count` frames.
    static func ffmpegFrames(_ path: String, width: Int, height: Int, count: Int) throws -> [Bitmap] {
        let output = NSTemporaryDirectory() + "vitrine-clip-frames-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).raw"
        defer { try? FileManager.default.removeItem(atPath: output) }
        // -noautorotate and an explicit transpose: the scale happens at the stored orientation,
        // then the picture turns, as the reader does it.
        let rotation = try probe(path, "stream_side_data=rotation")["rotation"].flatMap(Int.init) ?? 0
        let clockwise = ((-rotation % 360) + 360) % 360
        let sizeFilter = clockwise % 180 != 0 ? "scale=\(height):\(width)" : "scale=\(width):\(height)"
        let turn: String = switch clockwise {
        case 90: ",transpose=clock"
        case 180: ",hflip,vflip"
        case 270: ",transpose=cclock"
        default: ""
        }
        let result = try ProcessResult.run(["-v", "error", "-noautorotate", "-threads", "1", "-i", path, "-frames:v", "\(count)",
                                            "-sws_flags", "bilinear", "-vf", sizeFilter + turn, "-pix_fmt", "bgr0",
                                            "-f", "rawvideo", "-y", output], executable: "/usr/bin/ffmpeg")
        guard result.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["ffmpeg": result.stderr]) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        let frameBytes = width * height * 4
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { start in
            var bitmap = Bitmap(width: width, height: height)
            bytes.withUnsafeBytes { raw in
                bitmap.pixels.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<start + frameBytes])) }
            }
            return bitmap
        }
    }
}
