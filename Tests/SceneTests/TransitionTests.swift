import Foundation
import Testing
import Animation
import Geometry
import TestSupport
@testable import Scene

@Suite struct OpeningTests {
    /// Landscape 4:3 photos fit the 1080 px width: 1080 x 810, centred vertically.
    let landscapeFit = Rect(x: 0, y: 555, width: 1080, height: 810)
    /// Portrait 3:4 photos fit the width too on a 9:16 screen: 1080 x 1440.
    let portraitFit = Rect(x: 0, y: 240, width: 1080, height: 1440)

    @Test func tapOpensTheTappedPhotoFromItsCellToTheFitRect() {
        let h = Harness()
        let cell = h.scene.grid.cellRect(of: 6)
        h.tap(cell.center)
        let start = h.frame()
        #expect(start.mode == .opening)
        #expect(start.currentIndex == 6)
        #expect(start.movingPhoto == PhotoPlacement(index: 6, rect: cell))
        #expect(start.backgroundAlpha == 0)
        #expect(start.hiddenIndex == 6)
        #expect(start.pages.isEmpty)

        // Half way along the same spring for rect and alpha.
        let spring = Spring(duration: 0.5, dampingRatio: 0.8)
        let t0 = h.time
        let mid = h.scene.frame(at: t0 + 0.1)
        #expect(near(mid.movingPhoto?.rect, cell.interpolated(to: landscapeFit, spring.value(at: 0.1)), 1e-6))
        #expect(near(mid.backgroundAlpha, spring.value(at: 0.1)))
        #expect(mid.hiddenIndex == 6)

        // The overshoot: the rect goes past the fit rect, alpha stays at 1.
        let over = h.scene.frame(at: t0 + 0.3)
        #expect(over.movingPhoto!.rect.width > 1080)
        #expect(over.backgroundAlpha == 1)
        #expect(!over.drawsGrid)

        #expect(h.scene.frame(at: t0 + 0.499).mode == .opening)
        let end = h.scene.frame(at: t0 + 0.5)
        #expect(end.mode == .pager)
        #expect(end.photoRect == landscapeFit)
        #expect(end.movingPhoto == nil)
        #expect(end.pages.contains(PhotoPlacement(index: 6, rect: landscapeFit)))
        #expect(end.backgroundAlpha == 1)
        #expect(!h.scene.isAnimating)
    }

    @Test func aCellPartlyScrolledOffStartsFromItsVisiblePart() {
        let h = Harness()
        h.drag(from: Point(x: 500, y: 1000), to: Point(x: 500, y: 900), duration: 0.3, lift: false)
        h.time += 0.1
        h.lift()
        #expect(h.settle().gridScroll == 100)
        h.tap(Point(x: 400, y: 50))  // photo 1, its top 96 px above the screen
        let start = h.frame()
        #expect(start.currentIndex == 1)
        #expect(start.movingPhoto?.rect == Rect(x: 273, y: 0, width: 265, height: 169))
        #expect(h.settle().photoRect == portraitFit)
    }

    @Test func aTouchOnThePhotoDuringTheOpeningCatchesIt() {
        let h = Harness()
        h.tap(h.scene.grid.cellRect(of: 0).center)
        h.time += 0.1
        let caught = h.frame()
        let rect = caught.movingPhoto!.rect
        h.touch(rect.center)
        // It stays where it was caught, no longer animating.
        let held = h.frame(after: 0.2)
        #expect(held.mode == .dismissing)
        #expect(near(held.movingPhoto?.rect, rect, 1e-9))
        #expect(near(held.backgroundAlpha, caught.backgroundAlpha))
        #expect(!h.scene.isAnimating)
        // It follows the finger down, and the drag can dismiss it.
        h.move(duration: 0.3) { s in Point(x: rect.midX, y: rect.midY + 160 * s) }
        let dragged = h.frame()
        #expect(dragged.movingPhoto!.rect.midY > rect.midY + 100)
        h.lift()
        let end = h.settle()
        #expect(end.mode == .grid)
        #expect(end.hiddenIndex == nil)
    }

    @Test func aCaughtPhotoLetGoWithoutADragGoesOnToThePager() {
        let h = Harness()
        h.tap(h.scene.grid.cellRect(of: 0).center)
        h.time += 0.05
        h.tap(h.frame().movingPhoto!.rect.center)
        #expect(h.scene.mode == .dismissing)
        #expect(h.scene.isAnimating)
        let end = h.settle()
        #expect(end.mode == .pager)
        #expect(end.photoRect == landscapeFit)
    }

    @Test func aTouchElsewhereDuringTheOpeningIsIgnored() {
        let h = Harness()
        h.tap(h.scene.grid.cellRect(of: 0).center)
        let t0 = h.time
        h.time += 0.02
        h.touch(Point(x: 1000, y: 1900))
        h.move(duration: 0.2) { s in Point(x: 1000 - 600 * s, y: 1900) }  // would page if it counted
        #expect(h.scene.frame(at: t0 + 0.5).mode == .pager)
        h.move(duration: 0.1) { s in Point(x: 400 - 200 * s, y: 1900) }
        h.lift()
        let end = h.settle()
        #expect(end.mode == .pager)
        #expect(end.currentIndex == 0)
        #expect(end.photoRect == landscapeFit)
    }
}

@Suite struct DismissTests {
    let landscapeFit = Rect(x: 0, y: 555, width: 1080, height: 810)

    /// Photo 4 open in the pager.
    func openedHarness() -> Harness { .opened(4) }

    @Test func aStraightDragOf100PixelsScalesTo084AndHalvesTheAlpha() {
        let h = openedHarness()
        let finger0 = Point(x: 540, y: 960)
        h.drag(from: finger0, to: Point(x: 540, y: 1060), duration: 0.25, lift: false)
        let frame = h.frame()
        #expect(frame.mode == .dismissing)
        #expect(near(frame.backgroundAlpha, 0.5))
        #expect(frame.drawsGrid)
        #expect(frame.hiddenIndex == 4)
        let expected = Rect(x: 540 + (0 - 540) * 0.84, y: 1060 + (555 - 960) * 0.84, width: 1080 * 0.84, height: 810 * 0.84)
        #expect(near(frame.photoRect, expected, 1e-9))
    }

    @Test func thePhotoPointUnderTheFingerStaysUnderIt() {
        let h = openedHarness()
        let start = Point(x: 300, y: 800)
        // Where the finger is inside the photo, as fractions of its size.
        let u = (start.x - landscapeFit.x) / landscapeFit.width, v = (start.y - landscapeFit.y) / landscapeFit.height
        h.touch(start)
        var checked = 0
        h.move(duration: 1.2, along: { s in
            Point(x: 300 + 150 * sin(4 * s) - 80 * s, y: 800 + 420 * s + 60 * sin(11 * s))
        }, check: { finger in
            let frame = h.frame()
            guard frame.mode == .dismissing, let rect = frame.photoRect else { return }
            #expect(abs(rect.x + u * rect.width - finger.x) <= 0.5)
            #expect(abs(rect.y + v * rect.height - finger.y) <= 0.5)
            checked += 1
        })
        #expect(checked > 100)
    }

    @Test func releaseAtSmallProgressCancels() {
        let h = openedHarness()
        h.drag(from: Point(x: 540, y: 960), to: Point(x: 540, y: 980), duration: 0.2)  // p = 0.1
        let t0 = h.time
        #expect(h.frame().mode == .dismissing)
        #expect(h.scene.frame(at: t0 + 0.449).mode == .dismissing)
        let end = h.scene.frame(at: t0 + 0.45)
        #expect(end.mode == .pager)
        #expect(end.photoRect == landscapeFit)
        #expect(end.backgroundAlpha == 1)
        #expect(end.hiddenIndex == nil)
    }

    @Test func releaseMovingUpwardCancels() {
        let h = openedHarness()
        h.touch(Point(x: 540, y: 960))
        h.move(duration: 0.3) { s in Point(x: 540, y: 960 + 150 * s) }
        h.move(duration: 0.05) { s in Point(x: 540, y: 1110 - 30 * s) }  // 600 px/s upward
        h.time += 0.001
        h.lift()
        let end = h.settle()
        #expect(end.mode == .pager)
        #expect(end.currentIndex == 4)
    }

    @Test func releaseAfter150PixelsDownFinishesIntoTheCell() {
        let h = openedHarness()
        let cell = h.scene.grid.cellRect(of: 4)
        h.drag(from: Point(x: 540, y: 960), to: Point(x: 540, y: 1110), duration: 0.3)
        let t0 = h.time
        #expect(h.frame().mode == .dismissing)
        let last = h.scene.frame(at: t0 + 0.369)
        #expect(last.mode == .dismissing)
        #expect(last.backgroundAlpha < 0.05)
        let end = h.scene.frame(at: t0 + 0.37)
        #expect(end.mode == .grid)
        #expect(end.currentIndex == 4)
        #expect(end.hiddenIndex == nil)
        #expect(end.backgroundAlpha == 0)
        #expect(end.photoRect == nil)
        // The frame just before the end is the cell's.
        #expect(near(last.movingPhoto?.rect, cell, 2))
        #expect(!h.scene.isAnimating)
    }

    @Test func afterPagingItFinishesIntoThatPhotosCellWithTheGridScrolledToIt() {
        let h = Harness()
        h.open(27)  // row 6, fully visible
        h.drag(from: Point(x: 900, y: 960), to: Point(x: 200, y: 960), duration: 0.4)
        h.settle()
        #expect(h.scene.currentIndex == 28)
        // Photo 28 (row 7) was cut by the bottom edge: the grid scrolled so it is fully visible.
        #expect(h.frame().gridScroll == 1887 + 265 + 4 - 1920)
        let cell = h.scene.grid.cellRect(of: 28)
        #expect(cell.maxY <= 1920 && cell.minY >= 0)
        h.drag(from: Point(x: 540, y: 900), to: Point(x: 540, y: 1100), duration: 0.3)
        let t0 = h.time
        #expect(h.frame().hiddenIndex == 28)
        #expect(near(h.scene.frame(at: t0 + 0.3699).movingPhoto?.rect, cell, 2))
        let end = h.scene.frame(at: t0 + 0.37)
        #expect(end.mode == .grid)
        #expect(end.currentIndex == 28)
    }

    @Test func thePhotoStartsTheSpringAtTheFingersSpeed() throws {
        let h = openedHarness()
        // Past max_drag the scale no longer changes, so every photo point moves with the finger.
        h.touch(Point(x: 540, y: 700))
        h.move(duration: 0.5) { s in Point(x: 540 + 100 * s, y: 700 + 500 * s) }  // (200, 1000) px/s
        h.time += 0.001
        h.lift()
        let t0 = h.time
        let dt = 1e-5
        let a = try #require(h.scene.frame(at: t0).photoRect)
        let b = try #require(h.scene.frame(at: t0 + dt).photoRect)
        let vy = (b.midY - a.midY) / dt, vx = (b.midX - a.midX) / dt
        #expect(abs(vy - 1000) < 20)
        #expect(abs(vx - 200) < 4)
    }

    @Test func aSidewaysDragPagesInsteadOfDismissing() {
        let h = openedHarness()
        h.touch(Point(x: 700, y: 960))
        h.move(duration: 0.3) { s in Point(x: 700 - 400 * s, y: 960 + 150 * s) }
        let frame = h.frame()
        #expect(frame.mode == .pager)
        #expect(frame.photoRect == landscapeFit.offsetBy(dx: -400, dy: 0))
        #expect(frame.pages.map(\.index) == [4, 5])
    }

    @Test func aCancelledDismissCanBeCaughtAgain() {
        let h = openedHarness()
        h.drag(from: Point(x: 540, y: 960), to: Point(x: 540, y: 1000), duration: 0.2)
        h.time += 0.05
        let rect = h.frame().movingPhoto!.rect
        h.touch(rect.center)
        #expect(h.scene.mode == .dismissing)
        #expect(near(h.frame(after: 0.1).movingPhoto?.rect, rect, 1e-9))
        h.move(duration: 0.3) { s in Point(x: rect.midX, y: rect.midY + 180 * s) }
        h.lift()
        #expect(h.settle().mode == .grid)
    }
}

@Suite struct ClosingTests {
    @Test func escClosesWithTheEaseOutBezier() {
        let h = Harness()
        h.open(2)
        let fit = h.frame().photoRect!
        let cell = h.scene.grid.cellRect(of: 2)
        h.scene.handleBack(at: h.time)
        let t0 = h.time
        let start = h.frame()
        #expect(start.mode == .closing)
        #expect(start.movingPhoto?.rect == fit)
        #expect(start.backgroundAlpha == 1)
        #expect(start.hiddenIndex == 2)
        // Parameter 0.5 of (0, 0, 0.58, 1) is at time progress 0.3425, value progress 0.5.
        let mid = h.scene.frame(at: t0 + 0.3425 * 0.25)
        #expect(near(mid.movingPhoto?.rect, fit.interpolated(to: cell, 0.5), 1e-3))
        #expect(near(mid.backgroundAlpha, 0.5, 1e-5))
        let end = h.scene.frame(at: t0 + 0.25)
        #expect(end.mode == .grid)
        #expect(end.hiddenIndex == nil)
        #expect(end.currentIndex == 2)
        #expect(!h.scene.isAnimating)
    }

    @Test func aTouchOnThePhotoDuringTheClosingCatchesIt() {
        let h = Harness()
        h.open(2)
        h.scene.close(at: h.time)
        h.time += 0.05
        let rect = h.frame().movingPhoto!.rect
        h.tap(rect.center)
        #expect(h.scene.mode == .dismissing)
        let end = h.settle()
        #expect(end.mode == .pager)
        #expect(end.currentIndex == 2)
    }

    @Test func closingFromTheGridDoesNothing() {
        let h = Harness()
        h.scene.close(at: h.time)
        #expect(h.frame().mode == .grid)
        #expect(h.frame().currentIndex == nil)
    }
}
