/// Counts what the frame loop did over a reporting period: frames drawn, vblanks missed, and the
/// time each frame took to compose (p50/p99), for the minute log line and systemd's STATUS=.
public struct FrameStatistics: Equatable, Sendable {
    public private(set) var framesDrawn = 0
    public private(set) var framesDropped = 0
    private var composeTimes: [Double] = []

    public init() {}

    /// One presented frame: how long it took to compose, and how many refresh periods passed
    /// between the vblank it aimed at and the one it was shown at (0 when on time).
    public mutating func record(composeTime: Double, missedVblanks: Int) {
        framesDrawn += 1
        framesDropped += max(0, missedVblanks)
        composeTimes.append(composeTime)
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
        func ms(_ s: Double) -> String {
            let tenths = Int((s * 10_000).rounded())
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        return "\(framesDrawn) frames, \(framesDropped) dropped, frame time p50 \(ms(p50)), p99 \(ms(p99))"
    }

    public mutating func reset() { self = FrameStatistics() }
}
