import Geometry
import Scene
import Touch

/// A scripted visit of the product, for the headless `vitrine run` fallback and the README's
/// pictures: scroll the grid, open a photo, page through, drag it down to dismiss, open another,
/// zoom it with a double tap, and close it with Back. Taps aim at cells where they are on screen
/// when the step starts, so the tour works for any screen size and column count.
public final class DemoTour: ScriptedInput {
    /// A step and the time it starts.
    enum Step {
        /// `settle`: the finger slows to rest and stays a moment before lifting (no fling).
        case drag(from: UnitPoint, to: UnitPoint, duration: Double, settle: Bool)
        case tap(photo: Int)
        case doubleTap(at: UnitPoint)
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
        (6.8, "pager-second-photo"), (7.7, "double-tap-zoomed"), (8.45, "closing"), (9.0, "grid-at-rest"),
    ]

    private var script: [(start: Double, step: Step)]
    private var pending: [SceneInput] = []
    private let screen: Size
    private let frameInterval = 1.0 / 120

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
            (8.4, .back),
        ]
    }

    public var endTime: Double { 8.8 }

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
            return drag(from: point(from), to: point(to), start: start, duration: duration, settle: settle)
        case .tap(let photo):
            // Aim at the middle of the cell's visible part; the first visible cell if it is not there.
            let cells = frame.gridCells.filter { $0.rect.intersection(Rect(origin: .zero, size: screen)) != nil }
            guard let cell = cells.first(where: { $0.index == photo }) ?? cells.first,
                  let visible = cell.rect.intersection(Rect(origin: .zero, size: screen)) else { return [] }
            return tap(at: visible.center, start: start)
        case .doubleTap(let p):
            return tap(at: point(p), start: start) + tap(at: point(p), start: start + 0.15)
        case .back:
            return [.back(time: start)]
        }
    }

    private func tap(at p: Point, start: Double) -> [SceneInput] {
        [.touch(TouchFrame(time: start, contacts: [TouchContact(id: 1, position: p)])),
         .touch(TouchFrame(time: start + 0.06, contacts: [TouchContact(id: 1, position: p)])),
         .touch(TouchFrame(time: start + 0.07, contacts: []))]
    }

    /// A finger moving one sample per 1/120 s like a real panel: either lifted while still moving
    /// (a flick, so the release carries velocity) or slowing to rest and held before it lifts.
    private func drag(from a: Point, to b: Point, start: Double, duration: Double, settle: Bool) -> [SceneInput] {
        let steps = max(2, Int(duration / frameInterval))
        var events: [SceneInput] = []
        for i in 0...steps {
            let u = Double(i) / Double(steps)
            // Ease in and out to rest, or ease in and keep half the speed at the end.
            let eased = settle ? u * u * (3 - 2 * u) : (u < 0.5 ? 2 * u * u : 1 - (1 - u) * (1 - u) - 0.5 * (1 - u))
            let p = Point(x: a.x + (b.x - a.x) * eased, y: a.y + (b.y - a.y) * eased)
            events.append(.touch(TouchFrame(time: start + Double(i) * frameInterval, contacts: [TouchContact(id: 1, position: p)])))
        }
        let end = start + Double(steps) * frameInterval
        events.append(.touch(TouchFrame(time: end + (settle ? 0.1 : 0.004), contacts: [])))
        return events
    }
}
