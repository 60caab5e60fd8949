import Geometry
import TestSupport
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

    init(photoCount: Int = 200, parameters: SceneParameters = SceneParameters()) {
        scene = Scene(parameters: parameters, screenSize: Self.screenSize, photoSizes: Self.photoSizes(photoCount))
    }

    init(screenSize: Size, photoSizes: [Size], parameters: SceneParameters = SceneParameters()) {
        scene = Scene(parameters: parameters, screenSize: screenSize, photoSizes: photoSizes)
    }

    var parameters: SceneParameters { scene.parameters }

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

    /// Feeds the frames in order, the clock following them.
    func play(_ frames: [TouchFrame]) {
        for frame in frames {
            time = frame.time
            scene.handle(frame)
        }
    }

    /// The finger, already down, moves along `path(s)` for s in 0...1 over `duration`, one sample
    /// per 8 ms; `check` sees every sample after the scene handled it.
    func move(duration: Double, along path: (Double) -> Point, check: ((Point) -> Void)? = nil) {
        let samples = SyntheticGesture.stroke(along: path, time: time, duration: duration, interval: sampleInterval)
        for frame in samples.dropFirst() {
            play([frame])
            check?(frame.contacts[0].position)
        }
    }

    /// Straight line from `a` to `b` at constant speed, lifted 1 ms after the last sample.
    func drag(from a: Point, to b: Point, duration: Double, lift lifts: Bool = true) {
        play(SyntheticGesture.drag(from: a, to: b, time: time, duration: duration,
                                   end: lifts ? .lift(after: 0.001) : .stayDown, interval: sampleInterval))
    }

    /// Down and up 50 ms later, without a sample in between.
    func tap(_ point: Point) {
        play(SyntheticGesture.tap(at: point, time: time, duration: 0.05, lastSample: nil))
    }

    /// Two taps at `point`, the second 0.1 s after the first lifted.
    func doubleTap(_ point: Point) {
        tap(point)
        time += 0.1
        tap(point)
    }

    /// Two fingers `from` px apart on a horizontal line through `center`, spreading (or closing) to
    /// `to` px apart over `duration`, still down at the end.
    func pinch(center: Point, from startDistance: Double, to endDistance: Double, duration: Double) {
        play(SyntheticGesture.pinch(center: center, from: startDistance, to: endDistance, time: time, duration: duration,
                                    end: .stayDown, interval: sampleInterval))
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

    /// A fresh scene with photo `index` open in the pager.
    static func opened(_ index: Int) -> Harness {
        let h = Harness()
        h.open(index)
        return h
    }
}

/// SPEC §1's rubber band, written out: a finger `x` past an edge shows (1 - 1/(x*0.55/d + 1)) * d.
func specRubberBand(_ x: Double, d: Double) -> Double {
    let q = x * 0.55 / d + 1
    return (1 - 1 / q) * d
}
