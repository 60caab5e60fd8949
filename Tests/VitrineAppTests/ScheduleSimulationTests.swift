import Foundation
import TestSupport
import Testing

/// `vitrine simulate --clock` driving the opening hours in a fixed zone: the real executable, its
/// C library's time zone (TZ as a POSIX rule, so no zone files are needed).
@Suite(.serialized) struct ScheduleSimulationTests {
    /// Europe/Berlin's rules.
    static let berlinTZ = "CET-1CEST,M3.5.0,M10.5.0/3"

    struct Line {
        var t: Double
        var mode: String
        var photos: Int
        var screenOn: Bool
    }

    func simulate(hours: [String], clock: String, duration: Double, replay: String? = nil,
                  extra: String = "") throws -> (status: Int32, stderr: String, lines: [Line]) {
        let out = try TemporaryDirectory("schedule")
        defer { out.remove() }
        let hoursList = hours.map { "\"\($0)\"" }.joined(separator: ", ")
        try "[schedule]\nhours = [\(hoursList)]\n\(extra)".write(toFile: out.file("v.toml"), atomically: false, encoding: .utf8)
        var arguments = ["simulate", "--config", out.file("v.toml"), "--size", "800x480", "--photos", TestPaths.samplePhotos,
                         "--clock", clock, "--duration", "\(duration)", "--trace", out.file("trace.jsonl")]
        if let replay { arguments += ["--replay", TestPaths.recording(replay)] }
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = Self.berlinTZ
        let result = try ProcessResult.run(arguments, environment: environment)
        guard result.status == 0 else { return (result.status, result.stderr, []) }
        let text = try String(contentsOfFile: out.file("trace.jsonl"), encoding: .utf8)
        let lines = try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Line(t: try #require(object["t"] as? Double), mode: try #require(object["mode"] as? String),
                        photos: try #require(object["photos"] as? Int), screenOn: try #require(object["screen_on"] as? Bool))
        }
        return (0, result.stderr, lines)
    }

    @Test func closingTimeTakesTheOpenPhotoBackAtOnceAndTurnsTheScreenOff() throws {
        // Saturday 2026-11-28, 10 s before closing; a tap opens a photo at 0.5 s.
        let run = try simulate(hours: ["sat 10:00-18:00"], clock: "2026-11-28T17:59:50", duration: 12,
                               replay: "atmel_maxtouch.1-finger-fast-taps.evemu")
        #expect(run.status == 0, "\(run.stderr)")
        let open = run.lines.filter { $0.t < 9.99 }
        #expect(open.allSatisfy { $0.screenOn })
        #expect(open.contains { $0.mode == "pager" })
        let closed = run.lines.filter { $0.t >= 10 }
        #expect(!closed.isEmpty && closed.allSatisfy { !$0.screenOn && $0.mode == "grid" })
        // No closing animation: the first closed frame is already the grid.
        #expect(!run.lines.contains { $0.mode == "closing" && $0.t >= 9.9 })
        #expect(run.lines.allSatisfy { $0.photos == 14 })
    }

    @Test func springForwardOpensWhenTheClockJumpsPastTheWindowsStart() throws {
        // Sunday 2026-03-29 01:59:00 CET; 02:00 CET is 03:00 CEST, so a window from 02:30 opens
        // one minute in.
        let run = try simulate(hours: ["sun 02:30-04:00"], clock: "2026-03-29T01:59:00", duration: 65)
        #expect(run.status == 0, "\(run.stderr)")
        let firstOn = try #require(run.lines.first { $0.screenOn })
        #expect(abs(firstOn.t - 60) < 0.02)
        #expect(run.lines.filter { $0.t < 59.99 }.allSatisfy { !$0.screenOn })
    }

    @Test func fallBackKeepsANightWindowOpenThroughTheRepeatedHour() throws {
        // Sunday 2026-10-25 02:59:30 CEST; at 03:00 CEST the clock reads 02:00 CET again, still
        // inside 02:00-03:00, which closes an hour later.
        let run = try simulate(hours: ["sun 02:00-03:00"], clock: "2026-10-25T02:59:30", duration: 40)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.allSatisfy { $0.screenOn })
    }

    @Test func aBadClockIsAnErrorNamingTheForm() throws {
        let run = try simulate(hours: [], clock: "2026-11-28 17:59", duration: 1)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--clock must be a local time YYYY-MM-DDTHH:MM:SS"))
    }
}
