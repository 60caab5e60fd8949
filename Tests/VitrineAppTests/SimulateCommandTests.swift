import Foundation
import Geometry
import TestSupport
import Testing
import Touch
@testable import VitrineApp

/// `vitrine simulate` as a user runs it: the real executable, real recordings, real photos.
@Suite(.serialized) struct SimulateCommandTests {
    struct TraceLine {
        var t: Double
        var mode: String
        var index: Int?
        var photo: Rect?
        var backgroundAlpha: Double
        var scroll: Double
    }

    static func readTrace(_ path: String) throws -> [TraceLine] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            var photo: Rect?
            if let p = object["photo"] as? [String: Double] {
                photo = Rect(x: p["x"]!, y: p["y"]!, width: p["w"]!, height: p["h"]!)
            }
            return TraceLine(t: try #require(object["t"] as? Double), mode: try #require(object["mode"] as? String),
                             index: object["index"] as? Int, photo: photo,
                             backgroundAlpha: try #require(object["background_alpha"] as? Double),
                             scroll: try #require(object["scroll"] as? Double))
        }
    }

    /// Where the recording's first finger lands on an 800x480 screen, decoded independently of the app.
    static func firstTouch(_ recording: String, screen: Size) throws -> Point {
        let parsed = try EvemuRecording.parse(text: String(contentsOfFile: TestPaths.recording(recording), encoding: .utf8))
        var decoder = try TouchDecoder(device: parsed.device,
                                       transform: TouchTransform(device: parsed.device, screen: screen))
        for event in parsed.events {
            if let frame = decoder.feed(event), let contact = frame.contacts.first { return contact.position }
        }
        throw CancellationError()
    }

    @Test func aTapFromARealTouchscreenOpensThePhotoUnderIt() throws {
        let out = try TestPaths.temporaryDirectory("tap")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let trace = out + "/trace.jsonl"
        let result = try ProcessResult.run(["simulate", "--size", "800x480", "--photos", TestPaths.samplePhotos,
                                            "--replay", TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"),
                                            "--trace", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.readTrace(trace)

        // The default grid: 4 columns, 4 px spacing, square cells; the tap's cell by plain arithmetic.
        let tap = try Self.firstTouch("atmel_maxtouch.1-finger-fast-taps.evemu", screen: Size(width: 800, height: 480))
        let cell = (800.0 - 5 * 4) / 4
        let column = Int((tap.x - 4) / (cell + 4)), row = Int((tap.y - 4) / (cell + 4))
        let expected = row * 4 + column

        let opening = try #require(lines.first { $0.mode == "opening" })
        #expect(opening.index == expected)
        #expect(opening.t >= 0.5)
        // It started from that cell's frame.
        let cellRect = Rect(x: 4 + Double(column) * (cell + 4), y: 4 + Double(row) * (cell + 4), width: cell, height: cell)
        let first = try #require(opening.photo)
        #expect(abs(first.midX - cellRect.midX) < 40 && abs(first.midY - cellRect.midY) < 40)
        // Before the recording starts, the grid is at rest.
        #expect(lines.prefix { $0.t < 0.5 }.allSatisfy { $0.mode == "grid" && $0.index == nil && $0.photo == nil })
    }

    @Test func theTraceHasOneLinePerFrameAt60Hz() throws {
        let out = try TestPaths.temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let trace = out + "/trace.jsonl"
        let result = try ProcessResult.run(["simulate", "--size", "640x480", "--photos", TestPaths.samplePhotos,
                                            "--duration", "1", "--trace", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.readTrace(trace)
        #expect(lines.count == 61)
        for (n, line) in lines.enumerated() {
            #expect(abs(line.t - Double(n) / 60) < 1e-4)
        }
    }

    @Test func aTraceToStandardOutputIsStreamedAndAFullDeviceIsAnErrorNamingIt() throws {
        // `--trace /dev/stdout | jq`: written through the link into the pipe, never replacing it.
        let piped = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                           "--duration", "1", "--trace", "/dev/stdout"])
        #expect(piped.status == 0, "\(piped.stderr)")
        let lines = piped.stdout.split(separator: "\n")
        #expect(lines.count == 61)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"t\": ") && $0.hasSuffix("}") })
        var info = stat()
        #expect(lstat("/dev/stdout", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)

        let full = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                          "--duration", "1", "--trace", "/dev/full"])
        #expect(full.status == 1)
        #expect(full.stderr.contains("vitrine: cannot write the trace: write /dev/full: No space left on device (ENOSPC)"),
                "\(full.stderr)")
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func snapshotsAreWrittenAsPNGsAtTheRequestedTimes() throws {
        let out = try TestPaths.temporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                            "--snapshot", "0.25,0.5", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["snapshot-0.250.png", "snapshot-0.500.png"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // IHDR: width and height big-endian at bytes 16...23.
            let width = data[16...19].reduce(0) { $0 << 8 | Int($1) }, height = data[20...23].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 320 && height == 240)
        }
    }

    /// `--stats`: the frames `run` would draw, drawn by the real renderer: every frame while the
    /// photo zooms open, none while the screen is still.
    @Test func statsCountTheFramesRunWouldDrawAndNoneWhileStill() throws {
        func stats(_ arguments: [String]) throws -> (frames: Int, line: String) {
            let result = try ProcessResult.run(["simulate", "--size", "800x480", "--photos", TestPaths.samplePhotos,
                                                "--stats"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let line = try #require(result.stdout.split(separator: "\n").last.map(String.init))
            let pattern = #/^frames (\d+), draw p50 \d+\.\d\d ms, p99 \d+\.\d\d ms, max \d+\.\d\d ms, rows p50 (\d+), max (\d+), latency (none|p50 \d+\.\d ms, p99 \d+\.\d ms)$/#
            let match = try #require(line.wholeMatch(of: pattern), "\(line)")
            // The display rows written per frame: the first frame into each buffer writes all 480.
            #expect(Int(match.3) == 480 && Int(match.2)! <= 480, "\(line)")
            return (Int(match.1)!, line)
        }
        // 5 s of a grid nobody touches: the first frame and a redraw as thumbnails land, no more.
        let still = try stats(["--duration", "5"])
        #expect(still.frames >= 1 && still.frames <= 20, "\(still.line)")
        #expect(still.line.hasSuffix(", latency none"), "\(still.line)")
        // A tap opens a photo: the 0.5 s zoom alone is 30 frames at 60 Hz.
        let tap = try stats(["--replay", TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"), "--duration", "5"])
        #expect(tap.frames >= still.frames + 30, "\(tap.line)")
        #expect(tap.frames < 300, "\(tap.line)")
        #expect(!tap.line.hasSuffix(", latency none"), "\(tap.line)")
    }

    /// The kiosk's idle rules run in simulate too: a photo opened by a tap goes back to the grid
    /// after `kiosk.idle_timeout`, and the slideshow pages every `slideshow_interval`.
    @Test func theIdleReturnAndTheSlideshowRunInVirtualTime() throws {
        let out = try TestPaths.temporaryDirectory("idle")
        defer { try? FileManager.default.removeItem(atPath: out) }
        func trace(_ kiosk: String) throws -> [TraceLine] {
            try "[kiosk]\n\(kiosk)\n".write(toFile: out + "/vitrine.toml", atomically: true, encoding: .utf8)
            let result = try ProcessResult.run(["simulate", "--size", "800x480", "--photos", TestPaths.samplePhotos,
                                                "--config", out + "/vitrine.toml", "--duration", "12",
                                                "--replay", TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"),
                                                "--trace", out + "/trace.jsonl"])
            #expect(result.status == 0, "\(result.stderr)")
            return try Self.readTrace(out + "/trace.jsonl")
        }
        let idle = try trace("idle_timeout = 3\nidle_action = \"grid\"")
        let lastTouch = try #require(idle.last { $0.mode == "opening" || $0.mode == "dismissing" }).t
        let closing = try #require(idle.first { $0.mode == "closing" })
        // The recording's touches end within a second or two; the return comes 3 s after the last.
        #expect(closing.t > lastTouch)
        #expect(closing.t < 9)
        #expect(idle.last?.mode == "grid")

        let slides = try trace("idle_timeout = 2\nidle_action = \"slideshow\"\nslideshow_interval = 2")
        let pagerIndices = slides.filter { $0.mode == "pager" || $0.mode == "slideshow" }.compactMap(\.index)
        let distinct = pagerIndices.reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
        #expect(distinct.count >= 3, "\(distinct)")
    }

    /// Every --size error gives the allowed range; a size out of it names the side.
    @Test func sizeErrorsGiveTheAllowedRange() throws {
        #expect(try SimulationOptions.parseSize("1280X800", example: "1x1") == (1280, 800))
        let cases = [
            ("huge", "--size must be WIDTHxHEIGHT in pixels, each 16...16384, e.g. 1280x800 (got \"huge\")"),
            ("1280x", "--size must be WIDTHxHEIGHT in pixels, each 16...16384"),
            ("-5x800", "--size must be WIDTHxHEIGHT in pixels, each 16...16384"),
            ("20000x800", "--size width 20000 is out of range 16...16384 pixels"),
            ("800x8", "--size height 8 is out of range 16...16384 pixels"),
            ("800x99999999999999999999999", "--size height 99999999999999999999999 is out of range 16...16384 pixels"),
        ]
        for (size, message) in cases {
            do {
                _ = try SimulationOptions.parseSize(size, example: "1280x800")
                Issue.record("\(size) parsed")
            } catch let error as AppError {
                #expect(error.exitCode == 2)
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }

    @Test func badArgumentsAreUsageErrorsWithStatus2() throws {
        let size = try ProcessResult.run(["simulate", "--size", "huge"])
        #expect(size.status == 2)
        #expect(size.stderr.contains("--size must be WIDTHxHEIGHT"))
        // An argument of 100 kB is quoted as an excerpt, not whole (SPEC §6).
        let long = try ProcessResult.run(["simulate", "--size", String(repeating: "9", count: 100_000) + "x1"])
        #expect(long.status == 2)
        #expect(long.stderr.contains("bytes cut"))
        #expect(long.stderr.utf8.count < 1000)
        let replay = try ProcessResult.run(["simulate", "--size", "800x480", "--photos", TestPaths.samplePhotos,
                                            "--replay", "/nonexistent.evemu"])
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("/nonexistent.evemu"))
    }
}
