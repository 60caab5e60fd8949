import Animation
import Config
import Geometry

/// Zoom out without a drag (SPEC §1): an ease-out bezier from where the photo is to its grid cell,
/// the background fading out. Used by the idle timeout and the Esc/Back key.
final class ClosingTransition {
    let index: Int
    private let photo: CarriedPhoto
    private let grid: TransitionEnd
    private let pager: TransitionEnd

    init(index: Int, rect: Rect, alpha: Double, to grid: TransitionEnd, from pager: TransitionEnd,
         settings: Settings, time: Double) {
        self.index = index
        self.grid = grid
        self.pager = pager
        let end = grid.frame(of: index) ?? rect
        photo = CarriedPhoto(AnimatedVector(
            from: CarriedPhoto.components(rect, alpha), to: CarriedPhoto.components(end, 0), startTime: time,
            curve: BezierTiming(.easeOut, duration: settings.animation.closeDuration)))
        grid.setHidden(index)
        pager.setHidden(index)
    }

    func rect(at time: Double) -> Rect { photo.rect(at: time) }
    func alpha(at time: Double) -> Double { photo.alpha(at: time) }
    func isFinished(at time: Double) -> Bool { photo.isFinished(at: time) }

    /// The grid shows its cell again.
    func end() {
        grid.setHidden(nil)
        pager.setHidden(nil)
    }
}
