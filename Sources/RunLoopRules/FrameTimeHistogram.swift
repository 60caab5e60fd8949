/// Every frame's compose time since start, counted into fixed buckets (Prometheus' cumulative
/// histogram: `le` upper bounds in seconds, a sum and a count). Fixed memory whatever the uptime.
public struct FrameTimeHistogram: Equatable, Sendable {
    /// 1 ms to 100 ms: a 60 Hz frame has 16.7 ms; the blitter's frames take a few.
    public static let bounds: [Double] = [0.001, 0.002, 0.004, 0.008, 0.0167, 0.025, 0.05, 0.1]

    /// Frames at or under each bound, not cumulative; the last one counts those above every bound.
    public private(set) var buckets = [Int](repeating: 0, count: bounds.count + 1)
    public private(set) var sum = 0.0
    public private(set) var count = 0

    public init() {}

    public mutating func record(_ seconds: Double) {
        let index = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        buckets[index] += 1
        sum += seconds
        count += 1
    }

    /// (upper bound, frames at or under it), ending with (+infinity, count).
    public var cumulative: [(bound: Double, count: Int)] {
        var total = 0
        return zip(Self.bounds + [.infinity], buckets).map { bound, n in
            total += n
            return (bound, total)
        }
    }
}
