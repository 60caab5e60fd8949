import Foundation

/// A damped harmonic oscillator of unit mass resting at 0: y'' + 2 z w0 y' + w0^2 y = 0, solved in
/// closed form for any start displacement and velocity (under-, critically and over-damped).
public struct Oscillator: Equatable, Sendable {
    /// w0, radians per second.
    public let naturalFrequency: Double
    public let dampingRatio: Double
    public let initialDisplacement: Double
    public let initialVelocity: Double

    public init(naturalFrequency: Double, dampingRatio: Double, initialDisplacement: Double, initialVelocity: Double) {
        self.naturalFrequency = naturalFrequency
        self.dampingRatio = max(dampingRatio, 0)
        self.initialDisplacement = initialDisplacement
        self.initialVelocity = initialVelocity
    }

    /// Ratios this close to 1 use the critically damped form; the other two lose precision there.
    private static let criticalTolerance = 1e-6

    public func displacement(at t: Double) -> Double {
        evaluate(t).displacement
    }

    public func velocity(at t: Double) -> Double {
        evaluate(t).velocity
    }

    private func evaluate(_ t: Double) -> (displacement: Double, velocity: Double) {
        let w0 = naturalFrequency, z = dampingRatio
        let y0 = initialDisplacement, v0 = initialVelocity
        if abs(z - 1) <= Self.criticalTolerance {
            // y = (a + b t) e^(-w0 t)
            let a = y0, b = v0 + w0 * y0
            let e = exp(-w0 * t)
            return ((a + b * t) * e, (b - w0 * (a + b * t)) * e)
        }
        if z < 1 {
            // y = e^(-z w0 t) (a cos(wd t) + b sin(wd t))
            let wd = w0 * (1 - z * z).squareRoot()
            let a = y0, b = (v0 + z * w0 * y0) / wd
            let e = exp(-z * w0 * t)
            let c = cos(wd * t), s = sin(wd * t)
            let y = e * (a * c + b * s)
            let v = e * ((b * wd - z * w0 * a) * c - (a * wd + z * w0 * b) * s)
            return (y, v)
        }
        // y = c1 e^(r1 t) + c2 e^(r2 t), two real roots.
        let root = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - root), r2 = -w0 * (z + root)
        let c2 = (v0 - r1 * y0) / (r2 - r1)
        let c1 = y0 - c2
        let e1 = exp(r1 * t), e2 = exp(r2 * t)
        return (c1 * e1 + c2 * e2, r1 * c1 * e1 + r2 * c2 * e2)
    }
}
