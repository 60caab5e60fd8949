import Foundation
import Testing
import Animation
import Geometry
import TestSupport
import Touch
@testable import Scene

/// SPEC §1, Pager: pinch to close, and the second finger during a drag to dismiss, on virtual time.
@Suite struct PinchToCloseTests {
    /// Photo 2 aspect-fit at 1x: rect0 of the formulas.
    let rect0 = Rect(x: 0, y: 555, width: 1080, height: 810)

    func opened() -> Harness { .opened(2) }

    /// Both fingers: ids 1 and 2.
    func fingers(_ a: Point, _ b: Point) -> [TouchContact] {
        [TouchContact(id: 1, position: a), TouchContact(id: 2, position: b)]
    }

    /// rect(t) = c(t) + (rect0 - c0) * max(s, 0.25).
    func expectedRect(center c: Point, c0: Point, scale s: Double) -> Rect {
        let k = max(s, 0.25)
        return Rect(x: c.x + (rect0.x - c0.x) * k, y: c.y + (rect0.y - c0.y) * k, width: rect0.width * k,
                    height: rect0.height * k)
    }

    @Test func aPinchBelowOneAt1xIsADismissalAboutThePinchCentre() {
        let h = opened()
        let c0 = Point(x: 540, y: 960)
        h.touch(Point(x: 340, y: 960))
        h.time += 0.008
        h.touch([Point(x: 340, y: 960), Point(x: 740, y: 960)])  // 400 px apart: s = 1 from here
        #expect(h.frame().mode == .pager)
        // Closing to 300 px while the centre moves to (550, 1000): s = 0.75.
        for i in 1...10 {
            let u = Double(i) / 10, half = 200 - 50 * u
            let c = Point(x: 540 + 10 * u, y: 960 + 40 * u)
            h.time += 0.008
            h.touch([Point(x: c.x - half, y: c.y), Point(x: c.x + half, y: c.y)])
        }
        let frame = h.frame()
        #expect(frame.mode == .dismissing)
        #expect(frame.currentIndex == 2 && frame.hiddenIndex == 2)
        #expect(near(frame.photoRect, expectedRect(center: Point(x: 550, y: 1000), c0: c0, scale: 0.75), 1e-9))
        #expect(near(frame.photoRect, Rect(x: 145, y: 696.25, width: 810, height: 607.5), 1e-9))
        // p = (1 - 0.75) / (1 - 0.68); alpha = 1 - p.
        #expect(near(frame.backgroundAlpha, 1 - 0.25 / 0.32, 1e-12))
        #expect(frame.drawsGrid)
        // Below a quarter the photo stops shrinking; p is 1.
        h.time += 0.008
        h.touch([Point(x: 510, y: 1000), Point(x: 590, y: 1000)])  // s = 0.2
        let small = h.frame()
        #expect(near(small.photoRect, expectedRect(center: Point(x: 550, y: 1000), c0: c0, scale: 0.2), 1e-9))
        #expect(small.photoRect!.width == 270)
        #expect(small.backgroundAlpha == 0)
    }

    @Test func liftingAFingerOfAClosingPinchFinishesIntoTheCellFromThePinchsVelocity() throws {
        let h = opened()
        // 400 -> 240 px in 0.2 s (25 samples): ds/dt = -0.4 / 0.2 = -2 per second; p = 1.
        h.pinch(center: Point(x: 540, y: 960), from: 400, to: 240, duration: 0.2)
        h.time += 0.005
        h.scene.handle(TouchFrame(time: h.time, contacts: [TouchContact(id: 2, position: Point(x: 660, y: 960))]))
        let t0 = h.time, dt = 1e-5
        let a = h.scene.frame(at: t0), b = h.scene.frame(at: t0 + dt)
        #expect(a.mode == .dismissing)
        #expect(near(a.photoRect, expectedRect(center: Point(x: 540, y: 960), c0: Point(x: 540, y: 960), scale: 0.6), 1e-9))
        // The finish spring starts as the pinch was going: the width shrinking at 1080 * 2 px/s.
        #expect(abs((b.photoRect!.width - a.photoRect!.width) / dt - -2160) < 5)
        let cell = h.scene.grid.cellRect(of: 2)
        #expect(h.scene.frame(at: t0 + 0.369).mode == .dismissing)
        let end = h.scene.frame(at: t0 + h.parameters.dismiss.finish.duration)
        #expect(end.mode == .grid)
        #expect(end.hiddenIndex == nil)
        #expect(end.gridCells.contains(GridCell(index: 2, rect: cell)))
        h.scene.handle(TouchFrame(time: t0 + 0.5, contacts: []))
        #expect(h.scene.frame(at: t0 + 0.5).mode == .grid)
    }

    @Test func aPinchThatShrankThenOpenedBeforeTheLiftCancels() {
        let h = opened()
        h.pinch(center: Point(x: 540, y: 960), from: 400, to: 240, duration: 0.2)
        h.time += 0.008
        // Opening again to 320 px (s = 0.8, p = 0.625, past the threshold) at +2 per second.
        h.play(SyntheticGesture.pinch(center: Point(x: 540, y: 960), from: 240, to: 320, time: h.time, duration: 0.1,
                                      end: .lift(after: 0.005), interval: 0.008))
        let released = h.frame()
        #expect(released.mode == .dismissing)
        #expect(near(released.photoRect, expectedRect(center: Point(x: 540, y: 960), c0: Point(x: 540, y: 960), scale: 0.8),
                     1e-9))
        let end = h.frame(after: h.parameters.dismiss.cancel.duration)
        #expect(end.mode == .pager)
        #expect(end.photoRect == rect0)
        #expect(end.backgroundAlpha == 1)
        #expect(h.scene.currentIndex == 2)
    }

    @Test func aSmallPinchCancelsAndAPinchThatRestedFinishes() {
        let small = opened()
        small.pinch(center: Point(x: 540, y: 960), from: 400, to: 372, duration: 0.2)  // s = 0.93: p = 0.21875
        small.pinch(center: Point(x: 540, y: 960), from: 372, to: 390, duration: 0.3)  // s = 0.975: p = 0.078
        small.lift()
        #expect(small.frame(after: 0.45).mode == .pager)

        let rested = opened()
        rested.pinch(center: Point(x: 540, y: 960), from: 400, to: 300, duration: 0.1)
        rested.time += 0.05  // no sample for 50 ms: the pinch has no velocity
        rested.lift()
        #expect(rested.frame().mode == .dismissing)
        #expect(rested.frame(after: 0.37).mode == .grid)
    }

    @Test func pinchingOpenFrom1xStillZooms() {
        let h = opened()
        h.pinch(center: Point(x: 540, y: 960), from: 200, to: 300, duration: 0.1)
        #expect(h.frame().mode == .pager)
        #expect(near(h.scene.pager.zoomScale, 1.5, 1e-9))
        h.lift()
        #expect(h.settle().mode == .pager)
        #expect(near(h.scene.pager.zoomScale, 1.5, 1e-9))
    }

    @Test func aSecondFingerLandingDuringADragToDismissIsIgnored() {
        let h = opened()
        let finger0 = Point(x: 540, y: 900)
        h.touch(finger0)
        h.move(duration: 0.3) { s in Point(x: 540 + 30 * s, y: 900 + 100 * s) }
        #expect(h.frame().mode == .dismissing)
        // A second finger lands and moves; the photo keeps following the first one.
        for i in 0...10 {
            h.time += 0.008
            let first = Point(x: 570, y: 1000 + 4 * Double(i)), second = Point(x: 200 + 20 * Double(i), y: 300)
            h.scene.handle(TouchFrame(time: h.time, contacts: [TouchContact(id: 1, position: first),
                                                                TouchContact(id: 2, position: second)]))
        }
        let finger = Point(x: 570, y: 1040)
        let scale = 1 - 0.32 * (140 / 200.0)
        let frame = h.frame()
        #expect(frame.mode == .dismissing)
        #expect(near(frame.photoRect, Rect(x: finger.x + (rect0.x - finger0.x) * scale,
                                           y: finger.y + (rect0.y - finger0.y) * scale,
                                           width: 1080 * scale, height: 810 * scale), 1e-9))
        #expect(near(frame.backgroundAlpha, 1 - 0.7, 1e-12))
        // The first finger lifts while moving down: it finishes; the second lifting later changes nothing.
        h.time += 0.004
        h.scene.handle(TouchFrame(time: h.time, contacts: [TouchContact(id: 2, position: Point(x: 420, y: 300))]))
        h.time += 0.1
        h.lift()
        #expect(h.frame().mode == .dismissing)
        #expect(h.frame(after: 0.3).mode == .grid)
    }
}
