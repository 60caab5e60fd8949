import Geometry

/// Touch frames of made-up gestures, as a panel reports them: one frame per sample while fingers
/// move, then a frame without contacts when they lift, all on the scene's clock. The headless demo
/// tour, the start-up benchmark and the tests drive the scene with these. Finger ids start at 1.
public enum SyntheticGesture {
    /// A real panel's rate: one sample per 1/120 s.
    public static let panelInterval = 1.0 / 120

    /// How a drag's finger moves along its line.
    public enum Pace: Sendable {
        /// Constant speed.
        case steady
        /// Speeds up from rest and slows to rest at the end (smoothstep).
        case easeInOut
        /// Speeds up, then slows, and is still moving at the end at half its average speed.
        case flick

        /// The fraction of the way done at the fraction `u` of the time.
        func fraction(_ u: Double) -> Double {
            switch self {
            case .steady: u
            case .easeInOut: u * u * (3 - 2 * u)
            case .flick: u < 0.5 ? 2 * u * u : 1 - (1 - u) * (1 - u) - 0.5 * (1 - u)
            }
        }
    }

    /// What the fingers do after the last sample of their movement.
    public enum End: Sendable {
        /// They lift `after` seconds later, with no sample in between: still moving (the release
        /// carries their velocity) unless the pace brought them to rest.
        case lift(after: Double)
        /// They stay where they ended for `samples` more samples, then lift `after` seconds later:
        /// the release has no velocity.
        case hold(samples: Int, thenLiftAfter: Double)
        /// They stay down; the caller lifts them.
        case stayDown
    }

    /// A finger down at `point` at `time` and lifted `duration` later. Unless `lastSample` is nil,
    /// the panel reports it once more that long after touch-down, `drift` away from where it went
    /// down.
    public static func tap(at point: Point, time: Double, duration: Double = 0.07, lastSample: Double? = 0.06,
                           drift: Point = .zero) -> [TouchFrame] {
        var frames = [TouchFrame(time: time, contacts: [finger(at: point)])]
        if let lastSample {
            let moved = Point(x: point.x + drift.x, y: point.y + drift.y)
            frames.append(TouchFrame(time: time + lastSample, contacts: [finger(at: moved)]))
        }
        frames.append(TouchFrame(time: time + duration, contacts: []))
        return frames
    }

    /// Two taps at `point`, the second `interval` after the first began.
    public static func doubleTap(at point: Point, time: Double, interval: Double = 0.15) -> [TouchFrame] {
        tap(at: point, time: time) + tap(at: point, time: time + interval)
    }

    /// One finger along `path(s)` for s from 0 to 1: a sample every `interval` from `time` for
    /// `duration` (whole intervals, at least two), then `end`.
    public static func stroke(along path: (Double) -> Point, time: Double, duration: Double,
                              end: End = .stayDown, interval: Double = panelInterval) -> [TouchFrame] {
        moving(time: time, duration: duration, end: end, interval: interval) { [finger(at: path($0))] }
    }

    /// One finger from `a` to `b` along a straight line at `pace`, then `end`.
    public static func drag(from a: Point, to b: Point, time: Double, duration: Double, pace: Pace = .steady,
                            end: End, interval: Double = panelInterval) -> [TouchFrame] {
        stroke(along: { s in
            let f = pace.fraction(s)
            return Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
        }, time: time, duration: duration, end: end, interval: interval)
    }

    /// Two fingers side by side on a horizontal line through `center`, `startDistance` px apart at
    /// `time`, moving apart (or together) at a steady speed until they are `endDistance` apart, then
    /// `end`. Both go down in the first frame and lift in the same frame.
    public static func pinch(center: Point, from startDistance: Double, to endDistance: Double, time: Double,
                             duration: Double, end: End, interval: Double = panelInterval) -> [TouchFrame] {
        moving(time: time, duration: duration, end: end, interval: interval) { s in
            let half = (startDistance + (endDistance - startDistance) * s) / 2
            return [TouchContact(id: 1, position: Point(x: center.x - half, y: center.y)),
                    TouchContact(id: 2, position: Point(x: center.x + half, y: center.y))]
        }
    }

    private static func finger(at point: Point) -> TouchContact {
        TouchContact(id: 1, position: point)
    }

    /// Samples `contacts(s)` for s from 0 to 1, then ends as `end` says.
    private static func moving(time: Double, duration: Double, end: End, interval: Double,
                               contacts: (Double) -> [TouchContact]) -> [TouchFrame] {
        let steps = max(2, Int(duration / interval))
        var frames = (0...steps).map { i in
            TouchFrame(time: time + Double(i) * interval, contacts: contacts(Double(i) / Double(steps)))
        }
        var last = time + Double(steps) * interval
        switch end {
        case .lift(let after):
            frames.append(TouchFrame(time: last + after, contacts: []))
        case .hold(let samples, let after):
            let resting = contacts(1)
            for _ in 0..<samples {
                last += interval
                frames.append(TouchFrame(time: last, contacts: resting))
            }
            frames.append(TouchFrame(time: last + after, contacts: []))
        case .stayDown:
            break
        }
        return frames
    }
}
