import Foundation
import Quoting
import RunLoopRules

/// What `vitrine simulate` was asked to do, checked before anything runs.
public struct SimulationOptions {
    public var configPath: String?
    public var screenWidth: Int
    public var screenHeight: Int
    public var photosDirectory: String?
    public var replayPath: String?
    public var tracePath: String?
    public var snapshotTimes: [Double]
    public var outputDirectory: String
    public var duration: Double?
    /// Print `frames N, draw p50 X ms, p99 Y ms, max Z ms, ..., latency p50 L ms, p99 M ms` at the end.
    public var stats: Bool
    /// The local wall-clock time at t = 0 (`--clock`), for the opening hours; nil: the real time now.
    public var clock: LocalTime?

    public init(configPath: String?, size: String, photosDirectory: String?, replayPath: String?,
                tracePath: String?, snapshotTimes: String?, outputDirectory: String, duration: Double?, stats: Bool = false,
                clock: String? = nil) throws {
        let (w, h) = try Self.parseSize(size, example: "1280x800")
        self.configPath = configPath
        screenWidth = w
        screenHeight = h
        self.photosDirectory = photosDirectory
        self.replayPath = replayPath
        self.tracePath = tracePath
        self.snapshotTimes = try Self.parseTimes(snapshotTimes ?? "")
        self.outputDirectory = outputDirectory
        let end = Simulator.maximumTime
        if let d = duration, !(d > 0 && d <= end) {
            throw AppError("--duration must be between 0 and \(Int(end)) seconds (got \(d))", exitCode: 2)
        }
        // Virtual time ends at --duration, and at most at 3600 s (SPEC §6): a snapshot after the
        // end would never be taken.
        if let late = self.snapshotTimes.last, late > (duration ?? end) {
            throw AppError("--snapshot time \(late) s is after the end of the simulation (\(duration.map { "--duration \($0)" } ?? "at most \(Int(end))") s)", exitCode: 2)
        }
        self.duration = duration
        self.stats = stats
        if let clock {
            guard let local = LocalTime(iso: clock) else {
                throw AppError("--clock must be a local time YYYY-MM-DDTHH:MM:SS, e.g. 2026-11-27T17:59:30 (got \"\(Excerpt(clock))\")", exitCode: 2)
            }
            self.clock = local
        }
    }

    /// The screen sizes `--size` takes, in pixels, for the width and the height alike.
    static let sizeRange = 16...16384

    /// "WIDTHxHEIGHT", each within `sizeRange`; the error says which rule was broken and the range.
    static func parseSize(_ text: String, example: String) throws -> (Int, Int) {
        let range = "\(sizeRange.lowerBound)...\(sizeRange.upperBound)"
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            throw AppError("--size must be WIDTHxHEIGHT in pixels, each \(range), e.g. \(example) (got \"\(Excerpt(text))\")",
                           exitCode: 2)
        }
        var sides: [Int] = []
        for (name, part) in zip(["width", "height"], parts) {
            // Digits too many for an Int are out of range as well.
            guard let side = Int(part), sizeRange.contains(side) else {
                throw AppError("--size \(name) \(Excerpt(String(part))) is out of range \(range) pixels", exitCode: 2)
            }
            sides.append(side)
        }
        return (sides[0], sides[1])
    }

    static func parseTimes(_ text: String) throws -> [Double] {
        try text.split(separator: ",").map { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let t = Double(trimmed), t >= 0, t.isFinite else {
                throw AppError("--snapshot takes times in seconds separated by commas, e.g. 0.5,1.2 (got \"\(Excerpt(trimmed))\")", exitCode: 2)
            }
            return t
        }.sorted()
    }
}
