import Foundation
import Testing
import Animation
import Geometry
import TestSupport
@testable import Scene

@Suite struct PagerTests {
    let landscapeFit = Rect(x: 0, y: 555, width: 1080, height: 810)
    let portraitFit = Rect(x: 0, y: 240, width: 1080, height: 1440)
    /// Screen width plus page spacing.
    let pageWidth = 1100.0

    func opened(_ index: Int, photoCount: Int = 200) -> Harness {
        let h = Harness(photoCount: photoCount)
        h.open(index)
        #expect(h.frame().mode == .pager)
        return h
    }

    @Test func aDragMovesThePagesOneToOneWithSpacingBetweenThem() {
        let h = opened(2)
        h.touch(Point(x: 800, y: 960))
        h.move(duration: 0.4) { s in Point(x: 800 - 300 * s, y: 960 + 20 * s) }
        let frame = h.frame()
        #expect(frame.pages == [PhotoPlacement(index: 2, rect: landscapeFit.offsetBy(dx: -300, dy: 0)),
                                PhotoPlacement(index: 3, rect: portraitFit.offsetBy(dx: 1100 - 300, dy: 0))])
        #expect(!frame.drawsGrid)
    }

    @Test func aSlowDragPastHalfTheWidthGoesToTheNeighbour() {
        let h = opened(2)
        h.drag(from: Point(x: 900, y: 960), to: Point(x: 300, y: 960), duration: 1.0, lift: false)
        h.time += 0.1  // rest: no velocity
        h.lift()
        #expect(h.scene.currentIndex == 3)
        #expect(h.scene.isAnimating)
        // Where the finger left it: photo 3 is 600 px left of its place minus the page width.
        #expect(near(h.frame().photoRect, portraitFit.offsetBy(dx: pageWidth - 600, dy: 0), 1e-9))
        let end = h.frame(after: h.parameters.pager.settleDuration)
        #expect(end.photoRect == portraitFit)
        #expect(end.pages.map(\.index) == [3])
        #expect(!h.scene.isAnimating)
    }

    @Test func aSlowShortDragReturns() {
        let h = opened(2)
        h.drag(from: Point(x: 700, y: 960), to: Point(x: 600, y: 960), duration: 0.5)
        #expect(h.scene.currentIndex == 2)
        #expect(h.settle().photoRect == landscapeFit)
    }

    @Test func aFlickPagesEvenWhenShort() {
        let h = opened(2)
        h.drag(from: Point(x: 700, y: 960), to: Point(x: 600, y: 960), duration: 0.1)  // 1000 px/s leftward
        #expect(h.scene.currentIndex == 3)
        let h2 = opened(2)
        h2.drag(from: Point(x: 300, y: 960), to: Point(x: 400, y: 960), duration: 0.1)  // rightward
        #expect(h2.scene.currentIndex == 1)
    }

    @Test func aFlickBackAfterALongDragReturns() {
        let h = opened(2)
        h.touch(Point(x: 900, y: 960))
        h.move(duration: 0.6) { s in Point(x: 900 - 650 * s, y: 960) }
        h.move(duration: 0.05) { s in Point(x: 250 + 60 * s, y: 960) }  // 1200 px/s back to the right
        h.time += 0.001
        h.lift()
        #expect(h.scene.currentIndex == 2)
    }

    @Test func theSettleStartsAtTheFingersSpeed() throws {
        let h = opened(2)
        h.drag(from: Point(x: 700, y: 960), to: Point(x: 500, y: 960), duration: 0.25)  // 800 px/s leftward
        let t0 = h.time, dt = 1e-5
        let a = try #require(h.scene.frame(at: t0).photoRect), b = try #require(h.scene.frame(at: t0 + dt).photoRect)
        #expect(abs((b.x - a.x) / dt - -800) < 16)
        // Critically damped: it never passes its place.
        var t = t0
        while t < t0 + 0.35 {
            #expect(h.scene.frame(at: t).photoRect!.x >= -1e-9)
            t += 0.01
        }
    }

    @Test func noNeighbourPastTheFirstPhoto() {
        let h = opened(0)
        h.drag(from: Point(x: 200, y: 960), to: Point(x: 800, y: 960), duration: 1.0, lift: false)
        let banded = RubberBand.offset(600, dimension: 1080)
        #expect(near(h.frame().photoRect, landscapeFit.offsetBy(dx: banded, dy: 0), 1e-9))
        #expect(h.frame().pages.map(\.index) == [0])
        h.lift()
        #expect(h.scene.currentIndex == 0)
        #expect(h.settle().photoRect == landscapeFit)
    }

    @Test func noNeighbourPastTheLastPhoto() {
        let h = Harness(photoCount: 3)
        h.open(2)
        h.drag(from: Point(x: 900, y: 960), to: Point(x: 700, y: 960), duration: 0.1)  // a flick
        #expect(h.scene.currentIndex == 2)
        #expect(h.settle().photoRect == landscapeFit)
    }

    @Test func pagingScrollsTheGridToTheCurrentPhoto() {
        let h = Harness()
        h.open(31)  // row 7, cut by the bottom edge
        #expect(h.frame().gridScroll == 0)
        h.drag(from: Point(x: 300, y: 960), to: Point(x: 900, y: 960), duration: 0.1)
        #expect(h.scene.currentIndex == 30)
        #expect(h.frame().gridScroll == 1887 + 265 + 4 - 1920)
    }

    @Test func pinchZoomsAboutItsCentre() {
        let h = opened(0)
        h.pinch(center: Point(x: 540, y: 960), from: 200, to: 400, duration: 0.05)
        let zoomed = Rect(x: -540, y: 150, width: 2160, height: 1620)
        #expect(near(h.frame().photoRect, zoomed, 1e-9))
        h.time += 0.05
        h.lift()
        #expect(near(h.settle().photoRect, zoomed, 1e-9))
        #expect(near(h.scene.pager.zoomScale, 2))
    }

    @Test func pinchBeyondMaxZoomResistsAndSpringsBack() {
        let h = opened(0)
        h.pinch(center: Point(x: 540, y: 960), from: 100, to: 600, duration: 0.05)  // 6x
        let shown = 4 + RubberBand.offset(2, dimension: 1)
        #expect(near(h.scene.pager.zoomScale, shown, 1e-9))
        h.time += 0.05
        h.lift()
        #expect(h.scene.isAnimating)
        h.settle()
        #expect(near(h.scene.pager.zoomScale, 4, 1e-9))
        #expect(!h.scene.isAnimating)
    }

    @Test func aZoomedPhotoPinchedBelowOneResistsAndSpringsBackToFit() {
        let h = opened(0)
        h.doubleTap(Point(x: 540, y: 960))
        h.settle()
        h.pinch(center: Point(x: 540, y: 960), from: 400, to: 100, duration: 0.05)  // 2.5x * 0.25
        #expect(near(h.scene.pager.zoomScale, 1 + RubberBand.offset(0.625 - 1, dimension: 1), 1e-9))
        #expect(h.frame().mode == .pager)  // only a pinch that begins at 1x closes the photo
        h.lift()
        #expect(h.settle().photoRect == landscapeFit)
    }

    @Test func doubleTapTogglesZoomAboutTheTapPoint() {
        let h = opened(0)
        h.tap(Point(x: 300, y: 700))
        h.time += 0.1
        h.tap(Point(x: 305, y: 705))
        #expect(h.scene.isAnimating)
        // 2.5x about the second tap (305, 705), then clamped: 2025 px is taller than the screen, so y in -105...0.
        let end = h.frame(after: h.parameters.pager.zoom.duration)
        #expect(near(end.photoRect, Rect(x: 305 - 305 * 2.5, y: 0, width: 2700, height: 2025), 1e-9))
        #expect(end.mode == .pager)
        h.time += 1
        h.doubleTap(Point(x: 500, y: 500))
        #expect(h.settle().photoRect == landscapeFit)
    }

    @Test func aZoomedPhotoPansOneToOneRubberBandedPastItsEdgesAndDoesNotDismiss() {
        let h = opened(0)
        h.doubleTap(Point(x: 540, y: 960))
        let zoomed = h.settle().photoRect!
        #expect(near(zoomed, Rect(x: -810, y: -52.5, width: 2700, height: 2025), 1e-9))
        h.drag(from: Point(x: 540, y: 600), to: Point(x: 640, y: 1200), duration: 0.3, lift: false)
        let frame = h.frame()
        #expect(frame.mode == .pager)
        #expect(near(frame.photoRect!.x, zoomed.x + 100, 1e-9))
        // Its top edge went 547.5 px past the screen's: the grid's rubber band, d = the screen's height.
        #expect(near(frame.photoRect!.y, specRubberBand(547.5, d: 1920), 1e-9))
        h.drag(from: Point(x: 540, y: 600), to: Point(x: 2540, y: 600), duration: 0.3, lift: false)
        #expect(near(h.frame().photoRect!.x, specRubberBand(1190, d: 1080), 1e-9))
        #expect(near(h.frame().photoRect!.y, zoomed.y, 1e-9))
        h.lift()
        let end = h.settle()
        #expect(end.mode == .pager)
        #expect(h.scene.currentIndex == 0)
        #expect(end.photoRect == Rect(x: 0, y: zoomed.y, width: 2700, height: 2025))
    }

    @Test func slideshowAdvancesWithThePagingAnimationAndWraps() {
        let h = opened(1, photoCount: 3)
        h.scene.showNext(at: h.time)
        #expect(h.scene.currentIndex == 2)
        #expect(h.frame().photoRect == landscapeFit.offsetBy(dx: pageWidth, dy: 0))
        #expect(h.settle().photoRect == landscapeFit)
        h.scene.showNext(at: h.time)
        #expect(h.scene.currentIndex == 0)
        #expect(h.settle().photoRect == landscapeFit)
    }

    @Test func atRestNothingAnimates() {
        let h = opened(5)
        #expect(!h.scene.isAnimating)
        #expect(!Harness().scene.isAnimating)
    }
}

@Suite struct LibraryChangeTests {
    @Test func removingTheOpenPhotoReturnsToTheGrid() {
        let h = Harness(photoCount: 20)
        h.open(10)
        h.scene.setPhotoSizes(Harness.photoSizes(10))
        let frame = h.frame()
        #expect(frame.mode == .grid)
        #expect(frame.currentIndex == 9)
        #expect(frame.hiddenIndex == nil)
    }

    @Test func addingPhotosKeepsTheOpenOneAndTheScroll() {
        let h = Harness(photoCount: 200)
        h.drag(from: Point(x: 500, y: 1500), to: Point(x: 500, y: 1000), duration: 0.5, lift: false)
        h.time += 0.1
        h.lift()
        h.open(h.scene.grid.index(at: Point(x: 400, y: 960))!)
        let before = h.frame()
        h.scene.setPhotoSizes(Harness.photoSizes(300))
        let after = h.frame()
        #expect(after == before)
        h.scene.setPhotoSizes(Harness.photoSizes(300), openPhoto: .movedTo(150))
        #expect(h.frame().currentIndex == 150)
        #expect(h.frame().mode == .pager)
    }

    @Test func anEmptyLibraryShowsAnEmptyGrid() {
        let h = Harness(photoCount: 0)
        h.tap(Point(x: 100, y: 100))
        let frame = h.frame()
        #expect(frame.mode == .grid)
        #expect(frame.gridCells.isEmpty)
        h.scene.showNext(at: h.time)
        #expect(h.frame().mode == .grid)
    }
}
