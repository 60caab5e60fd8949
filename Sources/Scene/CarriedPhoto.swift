import Animation
import Geometry

/// The moving photo of a transition: its frame and the background's alpha, animated together as
/// [x, y, width, height, alpha].
struct CarriedPhoto {
    let animation: AnimatedVector

    init(_ animation: AnimatedVector) {
        self.animation = animation
    }

    static func components(_ rect: Rect, _ alpha: Double) -> [Double] {
        [rect.x, rect.y, rect.width, rect.height, alpha]
    }

    func rect(at time: Double) -> Rect {
        let v = animation.value(at: time)
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// Clamped to 0...1 where a spring overshoots.
    func alpha(at time: Double) -> Double {
        min(max(animation.value(at: time)[4], 0), 1)
    }

    func isFinished(at time: Double) -> Bool { animation.isFinished(at: time) }
}
