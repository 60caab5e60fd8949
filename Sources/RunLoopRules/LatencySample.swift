/// A reporting period's touch latencies in bounded memory, for their p50 and p99: every one while
/// there are at most `capacity`; past that, every second one kept and from then on every second
/// one taken (then every fourth...), an even sample of the whole period without a random source.
public struct LatencySample: Equatable, Sendable {
    /// 4096 seconds' worth: a minute of a 120 Hz panel's reports takes 7200, kept at one in two.
    public static let capacity = 4096

    public private(set) var values: [Double] = []
    /// Every latency recorded in the period, kept or not.
    public private(set) var count = 0
    /// One latency in `stride` is kept.
    private var stride = 1

    public init() {}

    public mutating func record(_ latency: Double) {
        defer { count += 1 }
        guard count % stride == 0 else { return }
        if values.count == Self.capacity {
            values = values.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            stride *= 2
            guard count % stride == 0 else { return }
        }
        values.append(latency)
    }

    /// The median and the 99th percentile (nearest rank) of those kept; nil when there are none.
    public var percentiles: (p50: Double, p99: Double)? {
        guard let p50 = FrameStatistics.percentile(50, of: values),
              let p99 = FrameStatistics.percentile(99, of: values) else { return nil }
        return (p50, p99)
    }
}
