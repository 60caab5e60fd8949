import Animation
import Geometry

/// Drag to dismiss (SPEC §1). While the finger is down the photo follows it, shrinking with the
/// downward travel, the point under the finger staying under it; on release a spring either
/// finishes into the grid cell or cancels back to the pager, starting with the finger's velocity.
final class DismissTransition {
    enum Outcome {
        case finish, cancel
    }

    let index: Int
    private let parameters: SceneParameters.Dismiss
    /// The photo's frame, the background's alpha and the finger at touch-down.
    private let startRect: Rect
    private let startAlpha: Double
    private let startFinger: Point
    private(set) var finger: Point
    private(set) var outcome: Outcome?
    private var release: CarriedPhoto?
    private let grid: TransitionEnd
    private let pager: TransitionEnd

    /// `rect` and `alpha` are the photo's frame and the background's alpha when `finger` touched down.
    init(index: Int, rect: Rect, alpha: Double, finger: Point, grid: TransitionEnd, pager: TransitionEnd,
         parameters: SceneParameters.Dismiss) {
        self.index = index
        self.parameters = parameters
        startRect = rect
        startAlpha = alpha
        startFinger = finger
        self.finger = finger
        self.grid = grid
        self.pager = pager
        grid.setHidden(index)
        pager.setHidden(index)
    }

    var isDragging: Bool { outcome == nil }

    /// p = clamp(dy / max_drag, 0, 1), dy the downward travel since touch-down.
    var progress: Double {
        min(max((finger.y - startFinger.y) / parameters.maxDrag, 0), 1)
    }

    /// scale = 1 - (1 - min_scale) p.
    var scale: Double { 1 - (1 - parameters.minScale) * progress }

    /// rect = finger + (rect0 - finger0) * scale.
    private var dragRect: Rect {
        let s = scale
        return Rect(x: finger.x + (startRect.x - startFinger.x) * s, y: finger.y + (startRect.y - startFinger.y) * s,
                    width: startRect.width * s, height: startRect.height * s)
    }

    private var dragAlpha: Double { startAlpha * (1 - progress) }

    func drag(to point: Point) {
        guard isDragging else { return }
        finger = point
    }

    func rect(at time: Double) -> Rect { release?.rect(at: time) ?? dragRect }
    func alpha(at time: Double) -> Double { release?.alpha(at: time) ?? dragAlpha }
    func isFinished(at time: Double) -> Bool { release?.isFinished(at: time) ?? false }

    /// The finger lifted moving at `velocity` px/s: finish into the grid cell (asked for now, after
    /// the caller scrolled the grid to it) or cancel back to the pager.
    func release(velocity: Point, at time: Double) {
        guard isDragging else { return }
        let finishes = progress > parameters.progressThreshold && velocity.y >= -parameters.upwardVelocity
        let rect = dragRect, alpha = dragAlpha
        // How the dragged frame was moving, so the spring starts at the same speed: the finger's
        // own velocity plus the growth or shrinking from the change in progress.
        let travel = finger.y - startFinger.y
        let progressRate = travel > 0 && travel < parameters.maxDrag ? velocity.y / parameters.maxDrag : 0
        let scaleRate = -(1 - parameters.minScale) * progressRate
        let rectVelocity = [velocity.x + (startRect.x - startFinger.x) * scaleRate,
                            velocity.y + (startRect.y - startFinger.y) * scaleRate,
                            startRect.width * scaleRate, startRect.height * scaleRate,
                            -startAlpha * progressRate]
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
