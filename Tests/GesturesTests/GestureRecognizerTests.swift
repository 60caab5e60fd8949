import Testing
import Geometry
import Touch
@testable import Gestures

@Suite struct GestureRecognizerTests {
    private func finger(_ x: Double, _ y: Double, id: Int = 1) -> TouchContact {
        TouchContact(id: id, position: Point(x: x, y: y))
    }

    /// Feeds the frames and returns every event.
    private func run(_ frames: [TouchFrame], _ recognizer: inout GestureRecognizer) -> [GestureEvent] {
        frames.flatMap { recognizer.handle($0) }
    }

    /// Down, a sample half-way through having drifted `drift` px to the right, up.
    private func tap(at x: Double, _ y: Double, time: Double, duration: Double = 0.1, drift: Double = 0) -> [TouchFrame] {
        SyntheticGesture.tap(at: Point(x: x, y: y), time: time, duration: duration, lastSample: duration / 2,
                             drift: Point(x: drift, y: 0))
    }

    @Test func aShortStillTouchIsATap() {
        var recognizer = GestureRecognizer()
        let events = run(tap(at: 100, 200, time: 1, drift: 9), &recognizer)
        #expect(events.first == .down(Point(x: 100, y: 200)))
        #expect(events.contains(.tap(Point(x: 100, y: 200))))
        #expect(events.last.map { if case .up = $0 { true } else { false } } == true)
        #expect(!recognizer.isTouching)
    }

    @Test func movingPastTheSlopIsNotATap() {
        var recognizer = GestureRecognizer()
        let events = run(tap(at: 100, 200, time: 1, drift: 11), &recognizer)
        #expect(!events.contains(.tap(Point(x: 100, y: 200))))
        #expect(events.contains { if case .panBegan = $0 { true } else { false } })
    }

    @Test func aLongTouchIsNotATap() {
        var recognizer = GestureRecognizer()
        let events = run(tap(at: 100, 200, time: 1, duration: 0.35), &recognizer)
        #expect(!events.contains(.tap(Point(x: 100, y: 200))))
    }

    @Test func twoQuickTapsNearEachOtherAreADoubleTap() {
        var recognizer = GestureRecognizer()
        let events = run(tap(at: 100, 200, time: 1) + tap(at: 120, 210, time: 1.3), &recognizer)
        #expect(events.contains(.tap(Point(x: 100, y: 200))))
        #expect(events.contains(.doubleTap(Point(x: 120, y: 210))))
        // Far apart or late: two single taps.
        var other = GestureRecognizer()
        let apart = run(tap(at: 100, 200, time: 1) + tap(at: 300, 200, time: 1.3)
                        + tap(at: 300, 200, time: 2.0), &other)
        #expect(!apart.contains { if case .doubleTap = $0 { true } else { false } })
    }

    @Test func aPanReportsTranslationAndReleaseVelocity() throws {
        var recognizer = GestureRecognizer()
        // 600 px/s down for 0.3 s, a sample every 10 ms, lifted while moving.
        let frames = SyntheticGesture.drag(from: Point(x: 500, y: 300), to: Point(x: 500, y: 480), time: 0,
                                           duration: 0.3, end: .lift(after: 0.005), interval: 0.01)
        let events = run(frames, &recognizer)
        let began = try #require(events.first { if case .panBegan = $0 { true } else { false } })
        if case let .panBegan(pan) = began {
            #expect(pan.translation.y > 10 && pan.translation.y < 20)
        }
        guard case let .panEnded(pan)? = events.first(where: { if case .panEnded = $0 { true } else { false } }) else {
            Issue.record("no panEnded")
            return
        }
        #expect(abs(pan.translation.y - 180) < 1e-9)
        #expect(abs(pan.velocity.y - 600) < 1e-6)
        #expect(abs(pan.velocity.x) < 1e-9)
    }

    @Test func twoFingersPinchWithCentreAndScale() throws {
        var recognizer = GestureRecognizer()
        let events = run([
            TouchFrame(time: 0, contacts: [finger(400, 500, id: 1)]),
            TouchFrame(time: 0.01, contacts: [finger(400, 500, id: 1), finger(600, 500, id: 2)]),
            TouchFrame(time: 0.05, contacts: [finger(350, 500, id: 1), finger(650, 500, id: 2)]),
            TouchFrame(time: 0.1, contacts: [finger(650, 500, id: 2)]),
            TouchFrame(time: 0.12, contacts: []),
        ], &recognizer)
        #expect(events.contains(.pinchBegan(Pinch(startCenter: Point(x: 500, y: 500), center: Point(x: 500, y: 500), scale: 1))))
        let changed = try #require(pinches(in: events).changed.first)
        #expect(changed.startCenter == Point(x: 500, y: 500) && changed.center == Point(x: 500, y: 500) && changed.scale == 1.5)
        // The first finger lifted 50 ms after the last change: a pause, so no velocity.
        #expect(pinches(in: events).ended == [Pinch(startCenter: Point(x: 500, y: 500), center: Point(x: 500, y: 500), scale: 1.5)])
        #expect(!events.contains { if case .tap = $0 { true } else { false } })
        #expect(!recognizer.isTouching)
    }

    @Test func twoFingersDownInOneFramePinchToo() throws {
        var recognizer = GestureRecognizer()
        let events = run(SyntheticGesture.pinch(center: Point(x: 500, y: 500), from: 200, to: 100, time: 0,
                                                duration: 0.1, end: .lift(after: 0.01)), &recognizer)
        #expect(events.first == .down(Point(x: 400, y: 500)))
        #expect(events.contains(.pinchBegan(Pinch(startCenter: Point(x: 500, y: 500), center: Point(x: 500, y: 500), scale: 1))))
        let ended = try #require(pinches(in: events).ended.first)
        #expect(ended.startCenter == Point(x: 500, y: 500) && ended.center == Point(x: 500, y: 500) && ended.scale == 0.5)
        #expect(!recognizer.isTouching)
    }

    /// The pinch's velocities come from the velocity tracker of SPEC §1 over its midpoints and scales,
    /// as the fingers were moving when one lifted (10 ms after the last sample).
    @Test func aPinchEndsWithTheVelocityOfItsScaleAndCentre() throws {
        var recognizer = GestureRecognizer()
        // Closing from 400 to 200 px in 0.2 s (ds/dt = -2.5 per second) while the midpoint moves
        // right at 300 px/s.
        let frames = (0...24).map { i in
            let t = Double(i) * 0.2 / 24, half = (400 - 1000 * t) / 2, cx = 500 + 300 * t
            return TouchFrame(time: t, contacts: [finger(cx - half, 700, id: 1), finger(cx + half, 700, id: 2)])
        } + [TouchFrame(time: 0.21, contacts: [finger(600, 700, id: 2)])]
        let ended = try #require(pinches(in: run(frames, &recognizer)).ended.first)
        #expect(abs(ended.scale - 0.5) < 1e-9)
        #expect(abs(ended.scaleVelocity - -2.5) < 1e-6)
        #expect(abs(ended.centerVelocity.x - 300) < 1e-6 && abs(ended.centerVelocity.y) < 1e-6)
    }

    /// A pinch that closed and then opened again is opening when a finger lifts.
    @Test func aPinchThatReversesReportsTheNewDirection() throws {
        var recognizer = GestureRecognizer()
        let closing = SyntheticGesture.pinch(center: Point(x: 500, y: 500), from: 400, to: 240, time: 0, duration: 0.2,
                                             end: .stayDown, interval: 0.01)
        let opening = SyntheticGesture.pinch(center: Point(x: 500, y: 500), from: 240, to: 320, time: 0.21,
                                             duration: 0.1, end: .lift(after: 0.005), interval: 0.01)
        let ended = try #require(pinches(in: run(closing + opening, &recognizer)).ended.first)
        #expect(abs(ended.scale - 0.8) < 1e-9)
        #expect(abs(ended.scaleVelocity - 2) < 1e-6)
    }

    private func pinches(in events: [GestureEvent]) -> (changed: [Pinch], ended: [Pinch]) {
        var changed: [Pinch] = [], ended: [Pinch] = []
        for event in events {
            if case let .pinchChanged(pinch) = event { changed.append(pinch) }
            if case let .pinchEnded(pinch) = event { ended.append(pinch) }
        }
        return (changed, ended)
    }
}
