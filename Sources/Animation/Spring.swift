import Foundation

/// UIKit's duration-based spring (SPEC §2): the animated fraction goes from 0 to 1 as a damped
/// oscillator whose envelope has decayed to 0.001 at `duration`, where it snaps to 1.
public struct Spring: TimingCurve, Equatable {
    /// Settable, as the config writes a spring's two numbers one key at a time; kept in range.
    public var duration: Double { didSet { duration = max(duration, 0) } }
    public var dampingRatio: Double { didSet { dampingRatio = max(dampingRatio, Self.minimumDampingRatio) } }
    /// Fractions of the whole distance per second.
    public let initialVelocity: Double

    /// Below this the oscillator's frequency is meaningless; configuration validates the range.
    private static let minimumDampingRatio = 0.01

    public init(duration: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        self.duration = max(duration, 0)
        self.dampingRatio = max(dampingRatio, Self.minimumDampingRatio)
        self.initialVelocity = initialVelocity
    }

    /// w0 = ln(1000) / (min(z, 1) * T).
    public var naturalFrequency: Double {
        log(1000) / (min(dampingRatio, 1) * duration)
    }

    /// k = w0^2.
    public var stiffness: Double { naturalFrequency * naturalFrequency }

    /// c = 2 z w0.
    public var damping: Double { 2 * dampingRatio * naturalFrequency }

    private var oscillator: Oscillator {
        // The fraction is 1 + y with y(0) = -1, y'(0) = v0.
        Oscillator(naturalFrequency: naturalFrequency, dampingRatio: dampingRatio,
                   initialDisplacement: -1, initialVelocity: initialVelocity)
    }

    public func value(at t: Double) -> Double {
        if t >= duration { return 1 }
        if t <= 0 { return 0 }
        return 1 + oscillator.displacement(at: t)
    }

    public func velocity(at t: Double) -> Double {
        if t >= duration { return 0 }
        return oscillator.velocity(at: max(t, 0))
    }
}
