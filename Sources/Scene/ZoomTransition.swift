import Animation
import Geometry

/// The opening (zoom in) and the closing (zoom out without a drag) of SPEC §1. Both carry the photo
/// between its grid cell and its frame in the pager on one timing curve, the background's alpha
/// going along, while both ends hide their own copy; they differ only in where they start and end
/// and in the curve.
final class ZoomTransition {
    let index: Int
    private let photo: CarriedPhoto
    private let grid: TransitionEnd
    private let pager: TransitionEnd

    private init(index: Int, from start: Rect, alpha startAlpha: Double, to end: Rect, alpha endAlpha: Double,
                 curve: any TimingCurve, time: Double, grid: TransitionEnd, pager: TransitionEnd) {
        self.index = index
        self.grid = grid
        self.pager = pager
        photo = CarriedPhoto(AnimatedVector(
            from: CarriedPhoto.components(start, startAlpha), to: CarriedPhoto.components(end, endAlpha),
            startTime: time, curve: curve))
        grid.setHidden(index)
        pager.setHidden(index)
    }

    /// Zoom in: the photo grows from its cell's visible part to its aspect-fit frame in the pager on
    /// `spring`, while the black background fades in on the same curve.
    static func opening(_ index: Int, from grid: TransitionEnd, to pager: TransitionEnd, screen: Rect,
                        spring: Spring, time: Double) -> ZoomTransition {
        let cell = grid.frame(of: index) ?? screen
        let start = cell.intersection(screen) ?? cell
        let end = pager.frame(of: index) ?? screen
        return ZoomTransition(index: index, from: start, alpha: 0, to: end, alpha: 1, curve: spring, time: time,
                              grid: grid, pager: pager)
    }

    /// Zoom out (the idle timeout, the Esc/Back key): an ease-out bezier of `duration` from where the
    /// photo is to its grid cell, the background fading out.
    static func closing(_ index: Int, rect: Rect, alpha: Double, to grid: TransitionEnd, from pager: TransitionEnd,
                        duration: Double, time: Double) -> ZoomTransition {
        let end = grid.frame(of: index) ?? rect
        return ZoomTransition(index: index, from: rect, alpha: alpha, to: end, alpha: 0,
                              curve: BezierTiming(.easeOut, duration: duration), time: time, grid: grid, pager: pager)
    }

    func rect(at time: Double) -> Rect { photo.rect(at: time) }
    func alpha(at time: Double) -> Double { photo.alpha(at: time) }
    func isFinished(at time: Double) -> Bool { photo.isFinished(at: time) }

    /// The end it arrived at shows its own copy from now on (the pager after an opening, the grid's
    /// cell after a closing).
    func end() {
        grid.setHidden(nil)
        pager.setHidden(nil)
    }
}
