/// Counts what the frame loop did over a reporting period: frames drawn, vblanks missed, and the
/// time each frame took to compose (p50/p99), for the minute log line and systemd's STATUS=.
public struct FrameStatistics: Equatable, Sendable {
    public private(set) var framesDrawn = 0
    public private(set) var framesDropped = 0
    private var composeTimes: [Double] = []
    /// Per frame, the display rows it wrote, when the caller counts them (`simulate`).
    private var rowsWritten: [Int] = []

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

    public func percentile(_ p: Double) -> Double? {
        guard !composeTimes.isEmpty else { return nil }
        let sorted = composeTimes.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    /// "1234 frames, 2 dropped, frame time p50 3.1 ms, p99 7.9 ms"
    public var summary: String {
        guard let p50 = percentile(50), let p99 = percentile(99) else { return "no frames drawn" }
        return "\(framesDrawn) frames, \(framesDropped) dropped, frame time p50 \(Self.ms(p50, 1)), p99 \(Self.ms(p99, 1))"
    }

    /// `simulate --stats` (SPEC §6): "frames 312, draw p50 0.84 ms, p99 1.92 ms, max 2.40 ms", and
    /// when rows were counted ", rows p50 0, max 480" (display rows written per frame).
    public var drawSummary: String {
        let p50 = percentile(50) ?? 0, p99 = percentile(99) ?? 0, max = composeTimes.max() ?? 0
        let draw = "frames \(framesDrawn), draw p50 \(Self.ms(p50, 2)), p99 \(Self.ms(p99, 2)), max \(Self.ms(max, 2))"
        guard !rowsWritten.isEmpty else { return draw }
        let rows = rowsWritten.sorted()
        let median = rows[Int((0.5 * Double(rows.count - 1)).rounded())]
        return draw + ", rows p50 \(median), max \(rows[rows.count - 1])"
    }

    /// Seconds as milliseconds with `places` decimals, without Foundation's locale.
    static func ms(_ seconds: Double, _ places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let units = Int((seconds * 1000 * Double(scale)).rounded())
        let fraction = String(units % scale)
        return "\(units / scale).\(String(repeating: "0", count: places - fraction.count) + fraction) ms"
    }

    public mutating func reset() { self = FrameStatistics() }
}
