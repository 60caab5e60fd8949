import Animation
import Config
import Geometry

/// Zoom in (SPEC §1): the photo grows from its cell's visible part to its aspect-fit frame in the
/// pager on a spring, while the black background fades in on the same curve.
final class OpeningTransition {
    let index: Int
    private let photo: CarriedPhoto
    private let grid: TransitionEnd
    private let pager: TransitionEnd

    init(index: Int, from grid: TransitionEnd, to pager: TransitionEnd, screen: Rect, settings: Settings, time: Double) {
        self.index = index
        self.grid = grid
        self.pager = pager
        let cell = grid.frame(of: index) ?? screen
        let start = cell.intersection(screen) ?? cell
        let end = pager.frame(of: index) ?? screen
        photo = CarriedPhoto(AnimatedVector(
            from: CarriedPhoto.components(start, 0), to: CarriedPhoto.components(end, 1), startTime: time,
            curve: Spring(duration: settings.animation.openDuration, dampingRatio: settings.animation.openDamping)))
        grid.setHidden(index)
        pager.setHidden(index)
    }

    func rect(at time: Double) -> Rect { photo.rect(at: time) }
    func alpha(at time: Double) -> Double { photo.alpha(at: time) }
    func isFinished(at time: Double) -> Bool { photo.isFinished(at: time) }

    /// The pager shows its own copy from now on.
    func end() {
        pager.setHidden(nil)
        grid.setHidden(nil)
    }
}
