import Foundation
import Testing
import Animation
import Geometry
import TestSupport
import Touch
@testable import Scene

/// SPEC §1, Pager: a zoomed photo's momentum and its edge hand-off to paging, on virtual time.
/// Photo 2 (landscape 4:3) is opened and zoomed 2.5x by a double tap; its neighbours 1 and 3 are
/// portrait.
@Suite struct ZoomedPanTests {
    let landscapeFit = Rect(x: 0, y: 555, width: 1080, height: 810)
    let portraitFit = Rect(x: 0, y: 240, width: 1080, height: 1440)
    /// UIScrollView's rate, per millisecond.
    let rate = 0.998

    /// Photo 2 zoomed 2.5x by a double tap at (`x`, 960): its left edge at x - 2.5x (0 at x = 0,
    /// -0.6 at x = 0.4, its right edge at the screen's at x = 1080), its top at -52.5.
    func zoomed(doubleTapAt x: Double) -> Harness {
        let h = Harness()
        h.open(2)
        h.doubleTap(Point(x: x, y: 960))
        h.settle()
        #expect(near(h.frame().photoRect, Rect(x: min(max(x - 2.5 * x, -1620), 0), y: -52.5, width: 2700, height: 2025),
                     1e-9))
        return h
    }

    /// x(t) of UIScrollView's deceleration in closed form: v0 (r^(1000 t) - 1) / (1000 ln r).
    func coast(_ x0: Double, _ v0: Double, _ t: Double) -> Double {
        x0 + v0 * (pow(rate, 1000 * t) - 1) / (1000 * log(rate))
    }

    // MARK: Momentum

    @Test func aReleasedZoomedPhotoKeepsTheFingersVelocityAndDecelerates() throws {
        let h = zoomed(doubleTapAt: 540)
        // 200 px left at a steady speed, lifted 1 ms after the last sample (31 samples 8 ms apart).
        h.drag(from: Point(x: 540, y: 960), to: Point(x: 340, y: 960), duration: 0.25)
        let v0 = -200 / (31 * 0.008), release = h.time, x0 = -1010.0
        #expect(h.scene.isAnimating)
        for dt in [0.0, 0.05, 0.2, 0.8] {
            let rect = try #require(h.scene.frame(at: release + dt).photoRect)
            #expect(near(rect.x, coast(x0, v0, dt), 1e-6), "at +\(dt) s")
            #expect(rect.y == -52.5)
        }
        // It comes to rest within half a pixel of where the closed form ends, inside the edges.
        let end = h.settle(5)
        #expect(!h.scene.isAnimating)
        #expect(near(end.photoRect!.x, x0 + v0 / (-1000 * log(rate)), 0.5 + 1e-9))
        #expect(end.mode == .pager && h.scene.currentIndex == 2)
    }

    @Test func coastingPastAnEdgeSpringsBackFromItOnTheBounceSpring() throws {
        let h = zoomed(doubleTapAt: 540)
        // A flick right: 200 px in 12 samples, enough to carry the left edge past the screen's.
        h.drag(from: Point(x: 300, y: 960), to: Point(x: 500, y: 960), duration: 0.1)
        let v0 = 200 / (12 * 0.008), release = h.time, x0 = -610.0
        // Where the coast crosses x = 0, and its speed there.
        let crossing = log(1 + (0 - x0) * 1000 * log(rate) / v0) / (1000 * log(rate))
        let speed = v0 * pow(rate, 1000 * crossing)
        #expect(near(h.scene.frame(at: release + crossing / 2).photoRect!.x, coast(x0, v0, crossing / 2), 1e-6))
        // From the edge: the bounce spring (0.5 s, critically damped) starting at that speed,
        // x = v t e^(-w0 t).
        let w0 = log(1000) / 0.5
        for dt in [0.02, 0.1, 0.3] {
            let x = try #require(h.scene.frame(at: release + crossing + dt).photoRect).x
            #expect(near(x, speed * dt * exp(-w0 * dt), 1e-6), "at +\(dt) s past the edge")
            #expect(x > 0)
        }
        #expect(h.scene.frame(at: release + crossing + 0.5 + 1e-9).photoRect?.x == 0)
        #expect(!h.scene.isAnimating)
    }

    @Test func aReleasePastAnEdgeSpringsBackAtTheBandsShareOfTheFingersSpeed() {
        let h = zoomed(doubleTapAt: 540)
        h.drag(from: Point(x: 540, y: 600), to: Point(x: 540, y: 900), duration: 0.3)  // top edge 247.5 px past
        let release = h.time
        let band = specRubberBand(247.5, d: 1920)
        #expect(near(h.scene.frame(at: release).photoRect!.y, band, 1e-9))
        #expect(h.scene.frame(at: release + 0.5).photoRect!.y == 0)
        #expect(!h.scene.isAnimating)
    }

    @Test func aTouchStopsTheMomentumWhereItIs() throws {
        let h = zoomed(doubleTapAt: 540)
        h.drag(from: Point(x: 540, y: 960), to: Point(x: 340, y: 960), duration: 0.25)
        let v0 = -200 / (31 * 0.008), release = h.time
        h.time = release + 0.1
        h.touch(Point(x: 700, y: 1200))
        let held = try #require(h.frame().photoRect)
        #expect(near(held.x, coast(-1010, v0, 0.1), 1e-6))
        #expect(!h.scene.isAnimating)
        #expect(h.frame(after: 0.2).photoRect == held)
        h.lift()
        #expect(h.settle().photoRect == held)
        #expect(h.scene.pager.zoomScale == 2.5)
    }

    // MARK: Edge hand-off

    @Test func aDragRightFromTheLeftEdgePagesAndTheLeavingPhotoIsBackAt1xAfterTheSettle() throws {
        let h = zoomed(doubleTapAt: 0)
        let zoomedRect = Rect(x: 0, y: -52.5, width: 2700, height: 2025)
        // Sideways past the slop, a little down: the pages move, the photo with them, not down.
        h.drag(from: Point(x: 300, y: 960), to: Point(x: 900, y: 1000), duration: 1.0, lift: false)
        let dragged = h.frame()
        #expect(dragged.mode == .pager)
        #expect(dragged.pages == [PhotoPlacement(index: 1, rect: portraitFit.offsetBy(dx: -1100 + 600, dy: 0)),
                                  PhotoPlacement(index: 2, rect: zoomedRect.offsetBy(dx: 600, dy: 0))])
        h.time += 0.1  // rests: past half the width without a flick
        h.lift()
        #expect(h.scene.currentIndex == 1)
        let released = h.frame()
        #expect(released.photoRect == portraitFit.offsetBy(dx: -500, dy: 0))
        // The photo that leaves keeps its zoom while it is on screen...
        #expect(released.pages.contains(PhotoPlacement(index: 2, rect: zoomedRect.offsetBy(dx: 600, dy: 0))))
        let end = h.frame(after: h.parameters.pager.settleDuration)
        #expect(end.photoRect == portraitFit)
        #expect(!h.scene.isAnimating)
        // ... and is back at 1x once the settle has ended.
        #expect(h.scene.pager.pageRect(of: 2) == landscapeFit.offsetBy(dx: 1100, dy: 0))
        h.drag(from: Point(x: 900, y: 960), to: Point(x: 300, y: 960), duration: 1.0, lift: false)
        h.time += 0.1
        h.lift()
        #expect(h.settle().photoRect == landscapeFit)
        #expect(h.scene.currentIndex == 2 && h.scene.pager.zoomScale == 1)
    }

    @Test func aFlickLeftFromTheRightEdgePagesWithTheFingersVelocity() throws {
        let h = zoomed(doubleTapAt: 1080)
        h.drag(from: Point(x: 800, y: 960), to: Point(x: 700, y: 960), duration: 0.1)  // 12 samples: ~1042 px/s
        let v = -100 / (12 * 0.008)
        #expect(h.scene.currentIndex == 3)
        let t0 = h.time, dt = 1e-5
        let a = try #require(h.scene.frame(at: t0).photoRect), b = try #require(h.scene.frame(at: t0 + dt).photoRect)
        #expect(a == portraitFit.offsetBy(dx: 1100 - 100, dy: 0))
        #expect(abs((b.x - a.x) / dt - v) < 16)
        #expect(h.settle().photoRect == portraitFit)
    }

    @Test func aPanThatReachesTheEdgeMovingSidewaysHandsOverToPaging() throws {
        let h = zoomed(doubleTapAt: 540)  // left edge at -810
        h.touch(Point(x: 100, y: 900))
        var crossed = false
        // Right and a little down: the photo pans until its left edge meets the screen's (810 px),
        // then the pages take the rest of the travel, 1:1, and the photo no longer goes down.
        h.move(duration: 1.0, along: { s in Point(x: 100 + 960 * s, y: 900 + 60 * s) }) { finger in
            let rect = h.frame().photoRect!
            if finger.distance(to: Point(x: 100, y: 900)) <= 10 {
                return  // within the slop: not a pan yet
            } else if finger.x - 100 <= 810 {
                #expect(near(rect.x, -810 + finger.x - 100, 1e-9) && near(rect.y, -52.5 + finger.y - 900, 1e-9))
            } else {
                crossed = true
                #expect(near(rect.x, finger.x - 100 - 810, 1e-9), "finger at \(finger.x)")
            }
        }
        #expect(crossed)
        let frame = h.frame()
        let y = frame.photoRect!.y
        #expect(y < -52.5 + 60 * 810 / 960 + 1e-9)
        #expect(frame.pages.map(\.index) == [1, 2])
        #expect(near(frame.pages[0].rect, portraitFit.offsetBy(dx: -1100 + 150, dy: 0), 1e-9))
        // Not past half the width, no flick: back to the zoomed photo, its left edge on the screen's.
        h.time += 0.1
        h.lift()
        let end = h.settle()
        #expect(h.scene.currentIndex == 2)
        #expect(near(end.photoRect, Rect(x: 0, y: y, width: 2700, height: 2025), 1e-9))
    }

    @Test func aPanThatReachesTheEdgeMovingMostlyDownKeepsPanningRubberBanded() {
        let h = zoomed(doubleTapAt: 540)  // left edge at -810, top at -52.5
        h.touch(Point(x: 100, y: 100))
        h.move(duration: 1.0) { s in Point(x: 100 + 900 * s, y: 100 + 1000 * s) }
        let frame = h.frame()
        #expect(near(frame.photoRect!.x, specRubberBand(90, d: 1080), 1e-9))
        #expect(near(frame.photoRect!.y, specRubberBand(1000 - 52.5, d: 1920), 1e-9))
        #expect(frame.pages.map(\.index) == [2])
    }

    @Test func aPhotoHalfAPixelOffTheEdgePansInsteadAndStaysZoomed() throws {
        let h = zoomed(doubleTapAt: 0.4)  // left edge at -0.6
        h.drag(from: Point(x: 300, y: 960), to: Point(x: 900, y: 1000), duration: 1.0, lift: false)
        let frame = h.frame()
        // A pan: 1:1 in both axes, the left edge 599.4 px past the screen's, rubber-banded.
        #expect(near(frame.photoRect!.x, specRubberBand(599.4, d: 1080), 1e-9))
        #expect(near(frame.photoRect!.y, -52.5 + 40, 1e-9))
        #expect(frame.pages.map(\.index) == [2])
        h.time += 0.1
        h.lift()
        #expect(h.scene.currentIndex == 2)
        #expect(near(h.settle().photoRect, Rect(x: 0, y: -12.5, width: 2700, height: 2025), 1e-9))
    }

    @Test func atTheEdgeADragAwayFromTheNeighbourOrFirstDownwardPans() {
        let h = zoomed(doubleTapAt: 0)
        h.drag(from: Point(x: 600, y: 960), to: Point(x: 400, y: 990), duration: 0.5, lift: false)
        #expect(near(h.frame().photoRect, Rect(x: -200, y: -22.5, width: 2700, height: 2025), 1e-9))
        h.time += 0.1
        h.lift()
        h.settle()
        let atEdge = zoomed(doubleTapAt: 0)
        // The first movement past the slop is more down than sideways: a pan, though it then goes right.
        atEdge.touch(Point(x: 300, y: 700))
        atEdge.move(duration: 0.5) { s in s < 0.2 ? Point(x: 300 + 20 * s, y: 700 + 100 * s) : Point(x: 304 + 300 * (s - 0.2), y: 720) }
        let rect = atEdge.frame().photoRect!
        #expect(near(rect.y, -52.5 + 20, 1e-9))
        #expect(near(rect.x, specRubberBand(244, d: 1080), 1e-9))
        #expect(atEdge.frame().pages.map(\.index) == [2])
    }
}
