import Geometry

/// A finger's velocity from its recent samples (SPEC §1): a least-squares quadratic fitted to the
/// samples of the last 100 ms, counted back from the newest, differentiated at the newest sample.
/// A pause of more than 40 ms, between samples or before the query, means the finger rested:
/// the history is dropped and the velocity is zero.
public struct VelocityTracker: Sendable {
    public static let horizon = 0.1
    public static let pauseLimit = 0.04
    /// The fastest a velocity is, either way on each axis: fifty screen widths a second, past any
    /// finger's flick. Two samples a nanosecond apart (a driver's timestamps, a recording) would
    /// otherwise give 1e12 px/s, and the scroll physics run on from it to infinities.
    public static let maximumSpeed = 100_000.0

    private var samples: [(time: Double, position: Point)] = []

    public init() {}

    public mutating func reset() {
        samples.removeAll()
    }

    public var newestTime: Double? { samples.last?.time }
    public var newestPosition: Point? { samples.last?.position }

    /// Adds one sample (one SYN_REPORT); times must not decrease.
    public mutating func add(_ position: Point, at time: Double) {
        if let last = samples.last {
            if time - last.time > Self.pauseLimit {
                samples.removeAll()
            } else if time <= last.time {
                samples.removeLast()
            }
        }
        samples.append((time, position))
        let oldest = time - Self.horizon - 1e-9
        if let keep = samples.firstIndex(where: { $0.time >= oldest }), keep > 0 {
            samples.removeFirst(keep)
        }
    }

    /// Pixels per second at the newest sample; zero if the finger has not moved for more than
    /// 40 ms before `time` (the time the finger lifted, say).
    public func velocity(at time: Double? = nil) -> Point {
        guard let newest = samples.last else { return .zero }
        if let time, time - newest.time > Self.pauseLimit { return .zero }
        let times = samples.map { $0.time - newest.time }
        return Point(x: Self.bounded(Self.slope(times, samples.map(\.position.x))),
                     y: Self.bounded(Self.slope(times, samples.map(\.position.y))))
    }

    /// A velocity within ±`maximumSpeed`; NaN (from a position that was not a number) is zero.
    private static func bounded(_ speed: Double) -> Double {
        speed.isNaN ? 0 : min(max(speed, -maximumSpeed), maximumSpeed)
    }

    /// The slope at τ = 0 of the least-squares quadratic through (τ, x); linear with two samples
    /// or when the quadratic is degenerate, zero with fewer.
    static func slope(_ tau: [Double], _ x: [Double]) -> Double {
        let n = Double(tau.count)
        guard tau.count >= 2 else { return 0 }
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var sx = 0.0, stx = 0.0, st2x = 0.0
        for (t, v) in zip(tau, x) {
            let t2 = t * t
            s1 += t; s2 += t2; s3 += t2 * t; s4 += t2 * t2
            sx += v; stx += t * v; st2x += t2 * v
        }
        if tau.count >= 3 {
            // Normal equations for a + b τ + c τ²; b by Cramer's rule.
            let det = n * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
            if abs(det) > 1e-9 * max(n * s2 * s4, 1e-300) {
                let detB = n * (stx * s4 - s3 * st2x) - sx * (s1 * s4 - s3 * s2) + s2 * (s1 * st2x - stx * s2)
                return detB / det
            }
        }
        let variance = n * s2 - s1 * s1
        guard variance > 1e-18 else { return 0 }
        return (n * stx - s1 * sx) / variance
    }
}
