import Geometry

/// Counts what the frame loop did over a reporting period: frames drawn, vblanks missed, the
/// time each frame took to compose (p50/p99) and the touches' latencies (p50/p99, SPEC §13), for
/// the minute log line, systemd's STATUS= and `simulate --stats`.
public struct FrameStatistics: Equatable, Sendable {
    public private(set) var framesDrawn = 0
    public private(set) var framesDropped = 0
    private var composeTimes: [Double] = []
    /// Per frame, the display rows it wrote, when the caller counts them (`simulate`).
    private var rowsWritten: [Int] = []
    /// Touch-to-flip latencies in the period, at most `LatencySample.capacity` of them.
    public private(set) var latencies = LatencySample()

    public init() {}

    /// One presented frame: how long it took to compose, and how many refresh periods passed
    /// between the vblank it aimed at and the one it was shown at (0 when on time).
    /// `rowsWritten`: the rows of the display's buffer the frame was copied into.
    public mutating func record(composeTime: Double, missedVblanks: Int, rowsWritten rows: Int? = nil) {
        framesDrawn += 1
        framesDropped += max(0, missedVblanks)
        composeTimes.append(composeTime)
        if let rows { rowsWritten.append(rows) }
    }

    /// One touch's latency: from its frame's kernel time to the flip that showed its change.
    public mutating func record(latency: Double) {
        latencies.record(latency)
    }

    /// The compose time at or under which `p` percent of the frames were (nearest rank).
    public func percentile(_ p: Double) -> Double? {
        Self.percentile(p, of: composeTimes)
    }

    static func percentile(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    /// "1234 frames, 2 dropped, frame time p50 3.1 ms, p99 7.9 ms", then when a touch changed the
    /// picture "; touch latency p50 12.3 ms, p99 19.8 ms".
    public var summary: String {
        guard let p50 = percentile(50), let p99 = percentile(99) else { return "no frames drawn" }
        let frames = "\(framesDrawn) frames, \(framesDropped) dropped, frame time p50 \(Self.ms(p50, 1)), p99 \(Self.ms(p99, 1))"
        guard let latency = latencies.percentiles else { return frames }
        return frames + "; touch latency p50 \(Self.ms(latency.p50, 1)), p99 \(Self.ms(latency.p99, 1))"
    }

    /// `simulate --stats` (SPEC §6, §13): "frames 312, draw p50 0.84 ms, p99 1.92 ms, max 2.40 ms",
    /// when rows were counted ", rows p50 0, max 480" (display rows written per frame), then
    /// ", latency p50 8.3 ms, p99 16.1 ms" (touch to the vblank that showed it), or
    /// ", latency none" when no touch changed the picture.
    public var drawSummary: String {
        let p50 = percentile(50) ?? 0, p99 = percentile(99) ?? 0, max = composeTimes.max() ?? 0
        var line = "frames \(framesDrawn), draw p50 \(Self.ms(p50, 2)), p99 \(Self.ms(p99, 2)), max \(Self.ms(max, 2))"
        if !rowsWritten.isEmpty {
            let rows = rowsWritten.sorted()
            let median = rows[Int((0.5 * Double(rows.count - 1)).rounded())]
            line += ", rows p50 \(median), max \(rows[rows.count - 1])"
        }
        guard let latency = latencies.percentiles else { return line + ", latency none" }
        return line + ", latency p50 \(Self.ms(latency.p50, 1)), p99 \(Self.ms(latency.p99, 1))"
    }

    /// Seconds as milliseconds with `places` decimals, without Foundation's locale.
    public static func ms(_ seconds: Double, _ places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        // Saturating, and never below 0: a latency is a difference of timestamps from outside
        // (the kernel's), and a negative one would make no sense (nor a well-formed string).
        let units = max(0, Int(saturating: (seconds * 1000 * Double(scale)).rounded()))
        let fraction = String(units % scale)
        return "\(units / scale).\(String(repeating: "0", count: places - fraction.count) + fraction) ms"
    }

    public mutating func reset() { self = FrameStatistics() }
}
