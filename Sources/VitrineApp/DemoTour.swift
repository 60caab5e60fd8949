import Geometry
import Scene
import Touch

/// A scripted visit of the product, for the headless `vitrine run` fallback and the README's
/// pictures: scroll the grid, open a photo, page through, drag it down to dismiss, open another,
/// zoom it with a double tap, flick it so it coasts and bounces off its right edge, drag from that
/// edge to page on (the zoomed photo leaving as a page), pinch the next one closed into the grid,
/// open a last one and close it with Back. Taps aim at cells where they are on screen
/// when the step starts, so the tour works for any screen size and column count.
public final class DemoTour: ScriptedInput {
    /// A step and the time it starts.
    enum Step {
        /// `settle`: the finger slows to rest and stays a moment before lifting (no fling).
        case drag(from: UnitPoint, to: UnitPoint, duration: Double, settle: Bool)
        case tap(photo: Int)
        case doubleTap(at: UnitPoint)
        /// Two fingers on a horizontal line through `center`, from `from` to `to` apart (fractions of
        /// the screen's width), lifted together while still moving.
        case pinch(center: UnitPoint, from: Double, to: Double, duration: Double)
        case back
    }

    /// A position as fractions of the screen's width and height.
    struct UnitPoint {
        var x: Double, y: Double
    }

    /// Times when a picture tells the story; the tour's PNGs are taken at these.
    public let highlights: [(time: Double, name: String)] = [
        (0.4, "grid"), (0.8, "grid-scrolling"), (1.75, "opening"), (2.4, "pager"), (2.95, "paging"),
        (4.4, "dismiss-drag"), (4.75, "dismiss-flying-back"), (5.6, "grid-after-dismiss"),
        (6.8, "pager-second-photo"), (7.6, "double-tap-zoomed"), (7.95, "zoomed-coasting"),
        (9.25, "edge-hand-off"), (10.45, "pinch-to-close"), (11.3, "grid-after-pinch"), (12.3, "pager-last-photo"),
        (12.5, "closing"), (13.0, "grid-at-rest"),
    ]

    private var script: [(start: Double, step: Step)]
    private var pending: [SceneInput] = []
    private let screen: Size

    public init(screenSize: Size) {
        screen = screenSize
        script = [
            // The scroll comes to rest under the finger: a tap on a grid still gliding would only
            // stop it (SPEC §1), so the tour does not fling before it taps.
            (0.5, .drag(from: UnitPoint(x: 0.5, y: 0.75), to: UnitPoint(x: 0.5, y: 0.45), duration: 0.5, settle: true)),
            (1.6, .tap(photo: 5)),
            (2.8, .drag(from: UnitPoint(x: 0.85, y: 0.5), to: UnitPoint(x: 0.25, y: 0.52), duration: 0.25, settle: false)),
            (4.0, .drag(from: UnitPoint(x: 0.5, y: 0.4), to: UnitPoint(x: 0.56, y: 0.75), duration: 0.6, settle: false)),
            (6.0, .tap(photo: 2)),
            (7.0, .doubleTap(at: UnitPoint(x: 0.5, y: 0.45))),
            // Lifted while moving: the zoomed photo coasts, runs past its right edge and springs back
            // to it, so the next drag starts at that edge.
            (7.7, .drag(from: UnitPoint(x: 0.7, y: 0.5), to: UnitPoint(x: 0.3, y: 0.5), duration: 0.15, settle: false)),
            // Leftward from the right edge: the zoomed photo moves as a page and the next one comes.
            (9.0, .drag(from: UnitPoint(x: 0.8, y: 0.5), to: UnitPoint(x: 0.2, y: 0.52), duration: 0.5, settle: true)),
            // At 1x, pinched to 40 %: it closes into its cell.
            (10.3, .pinch(center: UnitPoint(x: 0.5, y: 0.5), from: 0.5, to: 0.2, duration: 0.3)),
            (11.5, .tap(photo: 4)),
            (12.4, .back),
        ]
    }

    public var endTime: Double { 12.8 }

    public func events(through time: Double, lastFrame: SceneFrame) -> [SceneInput] {
        while let next = script.first, next.start <= time {
            script.removeFirst()
            pending += expand(next.step, at: next.start, frame: lastFrame)
        }
        let due = pending.prefix { $0.time <= time }
        pending.removeFirst(due.count)
        return Array(due)
    }

    private func point(_ p: UnitPoint) -> Point {
        Point(x: p.x * screen.width, y: p.y * screen.height)
    }

    private func expand(_ step: Step, at start: Double, frame: SceneFrame) -> [SceneInput] {
        switch step {
        case .drag(let from, let to, let duration, let settle):
            // Eased in and out to rest and lifted 0.1 s later, or a flick lifted while still moving
            // (the release carries velocity).
            return SyntheticGesture.drag(from: point(from), to: point(to), time: start, duration: duration,
                                         pace: settle ? .easeInOut : .flick,
                                         end: .lift(after: settle ? 0.1 : 0.004)).map(SceneInput.touch)
        case .tap(let photo):
            // Aim at the middle of the cell's visible part; the first visible cell if it is not there.
            let cells = frame.gridCells.filter { $0.rect.intersection(Rect(origin: .zero, size: screen)) != nil }
            guard let cell = cells.first(where: { $0.index == photo }) ?? cells.first,
                  let visible = cell.rect.intersection(Rect(origin: .zero, size: screen)) else { return [] }
            return SyntheticGesture.tap(at: visible.center, time: start).map(SceneInput.touch)
        case .doubleTap(let p):
            return SyntheticGesture.doubleTap(at: point(p), time: start).map(SceneInput.touch)
        case .pinch(let center, let from, let to, let duration):
            return SyntheticGesture.pinch(center: point(center), from: from * screen.width, to: to * screen.width,
                                          time: start, duration: duration, end: .lift(after: 0.004)).map(SceneInput.touch)
        case .back:
            return [.back(time: start)]
        }
    }
}
