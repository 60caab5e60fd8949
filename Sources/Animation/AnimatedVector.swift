/// Values (a rect's x, y, width, height and an alpha, say) animated together from `from` to `to`,
/// each component along its own timing curve. A pure function of time: sample it at any time, stop
/// it where it is (its value and velocity then), or retarget it from there.
public struct AnimatedVector: Sendable {
    public let from: [Double]
    public let to: [Double]
    public let startTime: Double
    private let curves: [any TimingCurve]

    /// v0 is clipped to this many whole distances per second (SPEC §2).
    public static let maximumSpringVelocity = 35.0

    /// Every component on the same curve.
    public init(from: [Double], to: [Double], startTime: Double, curve: any TimingCurve) {
        self.init(from: from, to: to, startTime: startTime, curves: Array(repeating: curve, count: from.count))
    }

    public init(from: [Double], to: [Double], startTime: Double, curves: [any TimingCurve]) {
        let count = min(from.count, to.count, curves.count)
        self.from = Array(from.prefix(count))
        self.to = Array(to.prefix(count))
        self.startTime = startTime
        self.curves = Array(curves.prefix(count))
    }

    /// A duration-based spring per component that starts with `velocity` (units per second): each
    /// component's v0 is its velocity over the distance it still has to travel, clipped to ±35.
    public static func spring(from: [Double], to: [Double], velocity: [Double], startTime: Double,
                              duration: Double, dampingRatio: Double) -> AnimatedVector {
        let curves: [any TimingCurve] = from.indices.map { i in
            let distance = i < to.count ? to[i] - from[i] : 0
            let v = i < velocity.count ? velocity[i] : 0
            return Spring(duration: duration, dampingRatio: dampingRatio,
                          initialVelocity: unitVelocity(v, distance: distance))
        }
        return AnimatedVector(from: from, to: to, startTime: startTime, curves: curves)
    }

    /// A velocity in units per second as fractions of `distance` per second, clipped to ±35.
    public static func unitVelocity(_ velocity: Double, distance: Double) -> Double {
        guard abs(distance) > 1e-9 else { return 0 }
        return min(max(velocity / distance, -maximumSpringVelocity), maximumSpringVelocity)
    }

    public var duration: Double { curves.map(\.duration).max() ?? 0 }
    public var endTime: Double { startTime + duration }

    public func isFinished(at time: Double) -> Bool { time >= endTime }

    public func value(at time: Double) -> [Double] {
        // Compared as isFinished does, so the end is the same instant for both.
        if isFinished(at: time) { return to }
        let t = time - startTime
        return from.indices.map { i in
            let f = curves[i].value(at: t)
            return f == 1 ? to[i] : from[i] + (to[i] - from[i]) * f
        }
    }

    /// Units per second.
    public func velocity(at time: Double) -> [Double] {
        if isFinished(at: time) { return to.map { _ in 0 } }
        let t = time - startTime
        return from.indices.map { i in (to[i] - from[i]) * curves[i].velocity(at: t) }
    }

    /// The same values moving towards `target` on a spring that starts from where this animation is
    /// at `time` with its velocity there, so nothing jumps.
    public func retargeted(to target: [Double], at time: Double, duration: Double, dampingRatio: Double) -> AnimatedVector {
        .spring(from: value(at: time), to: target, velocity: velocity(at: time), startTime: time,
                duration: duration, dampingRatio: dampingRatio)
    }
}
