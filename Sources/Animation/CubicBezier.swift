/// A Core Animation timing curve: a cubic bezier from (0, 0) to (1, 1) with two control points,
/// read as progress of time (x) to progress of the value (y).
public struct CubicBezier: Equatable, Sendable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public static let linear = CubicBezier(0, 0, 1, 1)
    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)

    public static let tolerance = 1e-6

    /// The value (y) at time progress x in 0...1.
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return Self.coordinate(parameter(forX: x), y1, y2)
    }

    /// dy/dx at time progress x.
    public func slope(at x: Double) -> Double {
        let s = parameter(forX: min(max(x, 0), 1))
        let dx = Self.derivative(s, x1, x2)
        if abs(dx) > 1e-6 { return Self.derivative(s, y1, y2) / dx }
        // Where the curve is vertical in x (an end with x1 or x2 at the corner), use a secant.
        let h = 1e-4
        let a = max(x - h, 0), b = min(x + h, 1)
        return (value(at: b) - value(at: a)) / (b - a)
    }

    /// The curve parameter s whose x(s) is `x`: Newton's method, then bisection if it fails.
    public func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = Self.coordinate(s, x1, x2) - x
            if abs(error) < Self.tolerance { return s }
            let d = Self.derivative(s, x1, x2)
            if abs(d) < 1e-6 { break }
            s -= error / d
        }
        var low = 0.0, high = 1.0
        s = x
        while high - low > Self.tolerance {
            let value = Self.coordinate(s, x1, x2)
            if abs(value - x) < Self.tolerance { return s }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }

    /// One coordinate of the curve with end points 0 and 1 and control coordinates p1, p2.
    private static func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private static func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}

/// A bezier curve played over a duration.
public struct BezierTiming: TimingCurve, Equatable {
    public let curve: CubicBezier
    public let duration: Double

    public init(_ curve: CubicBezier, duration: Double) {
        self.curve = curve
        self.duration = max(duration, 0)
    }

    public func value(at t: Double) -> Double {
        if t >= duration { return 1 }
        if t <= 0 { return 0 }
        return curve.value(at: t / duration)
    }

    public func velocity(at t: Double) -> Double {
        if t >= duration || duration == 0 { return 0 }
        return curve.slope(at: max(t, 0) / duration) / duration
    }
}
