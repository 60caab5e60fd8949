import Foundation

/// A value pulled to `rest` by a duration-based spring in absolute units (px and px/s), so it can
/// start at the rest position itself with a velocity: a scroll that coasts past its edge and returns.
public struct SpringBack: Equatable, Sendable {
    public let rest: Double
    public let startTime: Double
    public let duration: Double
    private let oscillator: Oscillator

    public init(from position: Double, to rest: Double, velocity: Double, time: Double,
                duration: Double, dampingRatio: Double) {
        let spring = Spring(duration: duration, dampingRatio: dampingRatio)
        self.rest = rest
        startTime = time
        self.duration = spring.duration
        oscillator = Oscillator(naturalFrequency: spring.naturalFrequency, dampingRatio: spring.dampingRatio,
                                initialDisplacement: position - rest, initialVelocity: velocity)
    }

    public var endTime: Double { startTime + duration }

    public func isFinished(at time: Double) -> Bool { time >= endTime }

    public func value(at time: Double) -> Double {
        if isFinished(at: time) { return rest }
        return rest + oscillator.displacement(at: max(time - startTime, 0))
    }

    public func velocity(at time: Double) -> Double {
        if isFinished(at: time) { return 0 }
        return oscillator.velocity(at: max(time - startTime, 0))
    }
}
