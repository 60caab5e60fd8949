/// Durations since start (a frame's compose time, a touch's latency), counted into fixed buckets
/// (Prometheus' cumulative histogram: `le` upper bounds in seconds, a sum and a count). Fixed
/// memory whatever the uptime.
public struct DurationHistogram: Equatable, Sendable {
    /// 1 ms to 100 ms: a 60 Hz frame has 16.7 ms; the blitter's frames take a few.
    public static let frameTimeBounds: [Double] = [0.001, 0.002, 0.004, 0.008, 0.0167, 0.025, 0.05, 0.1]
    /// 4 ms to 1 s, finest around one and two 60 Hz periods (16.7, 33.3 ms), where a touch's
    /// latency lands when the frame that shows it makes its vblank or misses one.
    public static let touchLatencyBounds: [Double] = [0.004, 0.008, 0.012, 0.0167, 0.025, 0.0333, 0.05, 0.075, 0.1,
                                                      0.25, 0.5, 1]

    /// The buckets' upper bounds in seconds, increasing.
    public let bounds: [Double]
    /// Durations at or under each bound, not cumulative; the last one counts those above every bound.
    public private(set) var buckets: [Int]
    public private(set) var sum = 0.0
    public private(set) var count = 0

    public init(bounds: [Double]) {
        self.bounds = bounds
        buckets = [Int](repeating: 0, count: bounds.count + 1)
    }

    public mutating func record(_ seconds: Double) {
        let index = bounds.firstIndex { seconds <= $0 } ?? bounds.count
        buckets[index] += 1
        sum += seconds
        count += 1
    }

    /// (upper bound, durations at or under it), ending with (+infinity, count).
    public var cumulative: [(bound: Double, count: Int)] {
        var total = 0
        return zip(bounds + [.infinity], buckets).map { bound, n in
            total += n
            return (bound, total)
        }
    }
}
