import Geometry

/// A one-finger drag: where it touched down, where the finger is, and how fast it moves.
public struct Pan: Equatable, Sendable {
    public var start: Point
    public var location: Point
    /// Pixels per second.
    public var velocity: Point

    public init(start: Point, location: Point, velocity: Point) {
        self.start = start
        self.location = location
        self.velocity = velocity
    }

    /// The finger's travel since touch-down.
    public var translation: Point { location - start }
}

/// A two-finger pinch: the midpoint of the fingers and their distance relative to the start (the
/// second finger's touch-down), with how fast both change.
public struct Pinch: Equatable, Sendable {
    public var startCenter: Point
    public var center: Point
    /// Finger distance / distance at the second finger's touch-down.
    public var scale: Double
    /// The midpoint's velocity, px/s (the velocity tracker of SPEC §1 over the midpoints).
    public var centerVelocity: Point
    /// d(scale)/dt per second, by the same tracker.
    public var scaleVelocity: Double

    public init(startCenter: Point, center: Point, scale: Double, centerVelocity: Point = .zero,
                scaleVelocity: Double = 0) {
        self.startCenter = startCenter
        self.center = center
        self.scale = scale
        self.centerVelocity = centerVelocity
        self.scaleVelocity = scaleVelocity
    }
}

/// What the fingers did, without any meaning attached: the scene decides by its mode what a pan
/// means (a scroll, a page, a dismissal, a zoomed photo's pan).
///
/// A touch sequence starts with `down`, ends with `up`, and holds in between either one pan or one
/// pinch (or neither); `tap` and `doubleTap` come just before `up`.
public enum GestureEvent: Equatable, Sendable {
    /// The first finger touched down.
    case down(Point)
    /// The finger moved further than the tap slop from where it touched down.
    case panBegan(Pan)
    case panChanged(Pan)
    /// The finger lifted; `velocity` is the release velocity.
    case panEnded(Pan)
    /// A second finger touched down before any pan.
    case pinchBegan(Pinch)
    case pinchChanged(Pinch)
    /// One of the two fingers lifted; the velocities are those at the lift.
    case pinchEnded(Pinch)
    /// Down and up within the tap slop and timeout, one finger only.
    case tap(Point)
    /// A tap soon after and near a tap (which was reported as `tap`).
    case doubleTap(Point)
    /// The last finger lifted: the sequence is over.
    case up(Point, velocity: Point)
}
