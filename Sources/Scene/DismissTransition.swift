import Animation
import Geometry

/// Dismissing (SPEC §1): drag to dismiss and pinch to close. While the fingers are down the photo
/// follows them, shrinking with the progress, the point under the finger (or the pinch's centre)
/// staying under it; when they let go a spring either finishes into the grid cell or cancels back
/// to the pager, starting at the photo's own velocity so nothing jumps.
final class DismissTransition {
    enum Outcome {
        case finish, cancel
    }

    /// What the photo follows while the fingers are down.
    private enum Gesture {
        /// One finger, from `start`: p from its downward travel.
        case drag(start: Point, finger: Point)
        /// Two fingers, their midpoint from `startCenter`: p from the scale s.
        case pinch(startCenter: Point, center: Point, scale: Double)
    }

    /// A pinch scales the photo by s, but never below this.
    static let minimumPinchScale = 0.25

    let index: Int
    private let parameters: SceneParameters.Dismiss
    /// The photo's frame and the background's alpha when the gesture began.
    private let startRect: Rect
    private let startAlpha: Double
    private var gesture: Gesture
    private(set) var outcome: Outcome?
    private var release: CarriedPhoto?
    private let grid: TransitionEnd
    private let pager: TransitionEnd

    /// Drag to dismiss: `rect` and `alpha` are the photo's frame and the background's alpha when
    /// `finger` touched down.
    convenience init(index: Int, rect: Rect, alpha: Double, finger: Point, grid: TransitionEnd,
                     pager: TransitionEnd, parameters: SceneParameters.Dismiss) {
        self.init(index: index, rect: rect, alpha: alpha, gesture: .drag(start: finger, finger: finger),
                  grid: grid, pager: pager, parameters: parameters)
    }

    /// Pinch to close: `rect` is the photo's frame (at 1x) and `center` the fingers' midpoint when
    /// the second finger touched down.
    convenience init(index: Int, rect: Rect, pinchCenter center: Point, grid: TransitionEnd, pager: TransitionEnd,
                     parameters: SceneParameters.Dismiss) {
        self.init(index: index, rect: rect, alpha: 1, gesture: .pinch(startCenter: center, center: center, scale: 1),
                  grid: grid, pager: pager, parameters: parameters)
    }

    private init(index: Int, rect: Rect, alpha: Double, gesture: Gesture, grid: TransitionEnd, pager: TransitionEnd,
                 parameters: SceneParameters.Dismiss) {
        self.index = index
        self.parameters = parameters
        startRect = rect
        startAlpha = alpha
        self.gesture = gesture
        self.grid = grid
        self.pager = pager
        grid.setHidden(index)
        pager.setHidden(index)
    }

    /// True while the photo follows the fingers (until they let go).
    var isDragging: Bool { outcome == nil }

    /// Drag: p = clamp(dy / max_drag, 0, 1), dy the downward travel since touch-down.
    /// Pinch: p = clamp((1 - s) / (1 - min_scale), 0, 1).
    var progress: Double {
        let raw = switch gesture {
        case let .drag(start, finger): (finger.y - start.y) / parameters.maxDrag
        case let .pinch(_, _, scale): (1 - scale) / (1 - parameters.minScale)
        }
        return min(max(raw, 0), 1)
    }

    /// The photo's scale about the point it follows: 1 - (1 - min_scale) p for a drag, max(s, 0.25)
    /// for a pinch.
    private var scale: Double {
        switch gesture {
        case .drag: 1 - (1 - parameters.minScale) * progress
        case let .pinch(_, _, s): max(s, Self.minimumPinchScale)
        }
    }

    /// rect = point + (rect0 - point0) * scale, the point being the finger or the pinch's centre.
    private var followingRect: Rect {
        let (point0, point) = switch gesture {
        case let .drag(start, finger): (start, finger)
        case let .pinch(startCenter, center, _): (startCenter, center)
        }
        let s = scale
        return Rect(x: point.x + (startRect.x - point0.x) * s, y: point.y + (startRect.y - point0.y) * s,
                    width: startRect.width * s, height: startRect.height * s)
    }

    private var followingAlpha: Double { startAlpha * (1 - progress) }

    func drag(to point: Point) {
        guard isDragging, case let .drag(start, _) = gesture else { return }
        gesture = .drag(start: start, finger: point)
    }

    func pinch(center: Point, scale: Double) {
        guard isDragging, case let .pinch(startCenter, _, _) = gesture else { return }
        gesture = .pinch(startCenter: startCenter, center: center, scale: scale)
    }

    func rect(at time: Double) -> Rect { release?.rect(at: time) ?? followingRect }
    func alpha(at time: Double) -> Double { release?.alpha(at: time) ?? followingAlpha }
    func isFinished(at time: Double) -> Bool { release?.isFinished(at: time) ?? false }

    /// The finger lifted moving at `velocity` px/s: finish if p > progress_threshold and it is not
    /// moving up faster than upward_velocity, else cancel.
    func release(velocity: Point, at time: Double) {
        guard isDragging, case let .drag(start, finger) = gesture else { return }
        let finishes = progress > parameters.progressThreshold && velocity.y >= -parameters.upwardVelocity
        // The dragged frame's own velocity: the finger's plus the shrinking from the change in progress.
        let travel = finger.y - start.y
        let progressRate = travel > 0 && travel < parameters.maxDrag ? velocity.y / parameters.maxDrag : 0
        let scaleRate = -(1 - parameters.minScale) * progressRate
        fly(finishing: finishes, pointVelocity: velocity, from: start, scaleRate: scaleRate,
            alphaRate: -startAlpha * progressRate, at: time)
    }

    /// A finger of the pinch lifted, the midpoint moving at `centerVelocity` px/s and the scale
    /// changing by `scaleVelocity` per second: finish if p > progress_threshold and the pinch was
    /// not opening (ds/dt <= 0.5 per second), else cancel.
    func release(centerVelocity: Point, scaleVelocity: Double, at time: Double) {
        guard isDragging, case let .pinch(startCenter, _, s) = gesture else { return }
        let finishes = progress > parameters.progressThreshold && scaleVelocity <= Self.openingScaleVelocity
        let scaleRate = s > Self.minimumPinchScale ? scaleVelocity : 0
        let p = (1 - s) / (1 - parameters.minScale)
        let alphaRate = p > 0 && p < 1 ? scaleVelocity / (1 - parameters.minScale) : 0
        fly(finishing: finishes, pointVelocity: centerVelocity, from: startCenter, scaleRate: scaleRate,
            alphaRate: alphaRate, at: time)
    }

    /// Faster than this (scale per second) a pinch is opening and does not close the photo.
    static let openingScaleVelocity = 0.5

    /// Starts the finish (into the grid cell, asked for now, after the caller scrolled the grid to
    /// it) or the cancel (back to the pager) spring from the photo's frame and velocity: the followed
    /// point's velocity plus the scaling about it (`scaleRate` per second), and the alpha's.
    private func fly(finishing finishes: Bool, pointVelocity: Point, from point0: Point, scaleRate: Double,
                     alphaRate: Double, at time: Double) {
        let rect = followingRect, alpha = followingAlpha
        let rectVelocity = [pointVelocity.x + (startRect.x - point0.x) * scaleRate,
                            pointVelocity.y + (startRect.y - point0.y) * scaleRate,
                            startRect.width * scaleRate, startRect.height * scaleRate, alphaRate]
        let target: [Double], spring: Spring
        if finishes {
            target = CarriedPhoto.components(grid.frame(of: index) ?? rect, 0)
            spring = parameters.finish
        } else {
            target = CarriedPhoto.components(pager.frame(of: index) ?? startRect, 1)
            spring = parameters.cancel
        }
        outcome = finishes ? .finish : .cancel
        release = CarriedPhoto(.spring(from: CarriedPhoto.components(rect, alpha), to: target, velocity: rectVelocity,
                                       startTime: time, duration: spring.duration, dampingRatio: spring.dampingRatio))
    }

    /// The end it went to shows its own copy again.
    func end() {
        grid.setHidden(nil)
        pager.setHidden(nil)
    }
}
