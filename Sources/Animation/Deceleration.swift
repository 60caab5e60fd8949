import Foundation

/// UIScrollView's coasting after a flick: the velocity is multiplied by `rate` every millisecond,
/// v(t) = v0 * rate^(1000 t), and the position is its closed-form integral.
public struct Deceleration: Equatable, Sendable {
    public let startPosition: Double
    /// Units per second at `startTime`.
    public let startVelocity: Double
    public let startTime: Double
    /// Per millisecond, in 0 < rate < 1.
    public let rate: Double

    /// The motion stops once the travel still to come is under half a pixel: from there on it
    /// could move the rounded picture by at most one pixel, and the loop can go back to sleep.
    public static let remainingTravelAtStop = 0.5

    public init(position: Double, velocity: Double, time: Double, rate: Double) {
        startPosition = position
        startVelocity = velocity
        startTime = time
        self.rate = min(max(rate, 0.5), 0.999_999)
    }

    /// 1000 * ln(rate): the exponent's coefficient per second (negative).
    private var decay: Double { 1000 * log(rate) }

    /// The speed under which the motion stops.
    public var stopSpeed: Double { Self.remainingTravelAtStop * -decay }

    /// Seconds from the start until the speed falls under `stopSpeed` (0 if it starts under it).
    public var duration: Double {
        let speed = abs(startVelocity)
        guard speed > stopSpeed else { return 0 }
        return log(stopSpeed / speed) / decay
    }

    public var endTime: Double { startTime + duration }

    public func isFinished(at time: Double) -> Bool { time >= endTime }

    public func position(at time: Double) -> Double {
        let t = isFinished(at: time) ? duration : min(max(time - startTime, 0), duration)
        return startPosition + startVelocity * (exp(decay * t) - 1) / decay
    }

    public func velocity(at time: Double) -> Double {
        if isFinished(at: time) { return 0 }
        return startVelocity * exp(decay * max(time - startTime, 0))
    }

    /// Where the motion would come to rest if it never stopped.
    public var restingPosition: Double { startPosition - startVelocity / decay }

    /// The time the motion first reaches `position`, or nil if it stops before.
    public func time(reaching position: Double) -> Double? {
        guard startVelocity != 0 else { return nil }
        let fraction = 1 + (position - startPosition) * decay / startVelocity
        guard fraction > 0, fraction <= 1 else { return nil }
        let t = log(fraction) / decay
        return t <= duration ? startTime + t : nil
    }
}
