/// How an animated fraction goes from 0 to 1 over time: a spring or a bezier curve.
public protocol TimingCurve: Sendable {
    /// Seconds until the fraction is exactly 1 and stays there.
    var duration: Double { get }
    /// The fraction at `t` seconds after the start: 0 at or before 0, exactly 1 from `duration` on.
    func value(at t: Double) -> Double
    /// d(fraction)/dt at `t` seconds after the start; 0 from `duration` on.
    func velocity(at t: Double) -> Double
}
