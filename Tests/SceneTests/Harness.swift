import Config
import Geometry
import Touch
@testable import Scene

/// Drives a scene with synthetic touches on virtual time, like a replayed recording.
final class Harness {
    static let screenSize = Size(width: 1080, height: 1920)
    /// Even photos are landscape 4:3, odd ones portrait 3:4.
    static func photoSizes(_ count: Int) -> [Size] {
        (0..<count).map { $0 % 2 == 0 ? Size(width: 4000, height: 3000) : Size(width: 3000, height: 4000) }
    }

    let scene: Scene
    var time = 1.0
    /// A panel samples every 8 ms.
    let sampleInterval = 0.008

    init(photoCount: Int = 200, settings: Settings = Settings()) {
        scene = Scene(settings: settings, screenSize: Self.screenSize, photoSizes: Self.photoSizes(photoCount))
    }

    var settings: Settings { scene.settings }

    func frame() -> SceneFrame { scene.frame(at: time) }

    func frame(after dt: Double) -> SceneFrame {
        time += dt
        return scene.frame(at: time)
    }

    func touch(_ points: [Point]) {
        scene.handle(TouchFrame(time: time, contacts: points.enumerated().map { TouchContact(id: $0.offset + 1, position: $0.element) }))
    }

    func touch(_ point: Point) { touch([point]) }

    func lift() { scene.handle(TouchFrame(time: time, contacts: [])) }

    /// The finger, already down, moves along `path(s)` for s in 0...1 over `duration`, one sample
    /// per 8 ms; `check` sees every sample after the scene handled it.
    func move(duration: Double, along path: (Double) -> Point, check: ((Point) -> Void)? = nil) {
        let steps = max(Int((duration / sampleInterval).rounded()), 1)
        for step in 1...steps {
            time += sampleInterval
            let point = path(Double(step) / Double(steps))
            touch(point)
            check?(point)
        }
    }

    /// Straight line from `a` to `b` at constant speed.
    func drag(from a: Point, to b: Point, duration: Double, lift lifts: Bool = true) {
        touch(a)
        move(duration: duration) { s in Point(x: a.x + (b.x - a.x) * s, y: a.y + (b.y - a.y) * s) }
        if lifts {
            time += 0.001
            lift()
        }
    }

    func tap(_ point: Point) {
        touch(point)
        time += 0.05
        lift()
    }

    /// Lets all animations finish.
    @discardableResult
    func settle(_ dt: Double = 1) -> SceneFrame { frame(after: dt) }

    /// Taps photo `index`'s cell (which must be on screen) and waits for the pager.
    func open(_ index: Int) {
        let cell = scene.grid.cellRect(of: index)
        tap(cell.center)
        settle()
    }
}

/// Closeness of rects and numbers, for readable expectations.
func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

func near(_ a: Rect?, _ b: Rect?, _ tolerance: Double = 1e-6) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return near(a.x, b.x, tolerance) && near(a.y, b.y, tolerance)
        && near(a.width, b.width, tolerance) && near(a.height, b.height, tolerance)
}
