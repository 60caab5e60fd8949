import Geometry
import Gestures
import Testing
@testable import Scene

/// SPEC §12: one finger resting 0.5 s on the pager's page at 1x, within the tap slop, is a hold
/// (a Live Photo plays its motion); moving first is a drag as always.
@Suite struct PageHoldTests {
    /// On photo 2's picture (landscape, 555...1365 px high on the 1080x1920 screen).
    let onPhoto = Point(x: 540, y: 960)

    func opened(_ index: Int = 2, parameters: SceneParameters = SceneParameters()) -> Harness {
        let h = Harness(parameters: parameters)
        h.open(index)
        #expect(h.frame().mode == .pager)
        return h
    }

    @Test func aFingerRestingHalfASecondIsAHoldUntilItLifts() {
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.49
        #expect(h.frame().mode == .pager)
        #expect(h.scene.pageHold == nil)
        h.time = down + 0.5
        _ = h.frame()
        #expect(h.scene.pageHold == PageHold(index: 2, time: down + 0.5))
        // It stays, with the time it began, while the finger rests (sampled at every vblank).
        h.time = down + 1.2
        _ = h.frame()
        #expect(h.scene.pageHold == PageHold(index: 2, time: down + 0.5))
        h.lift()
        #expect(h.scene.pageHold == nil)
        // Nothing else happened: the page is where it was, at 1x.
        let frame = h.settle()
        #expect(frame.mode == .pager && frame.currentIndex == 2 && !h.scene.pager.isZoomed)
        #expect(h.scene.pageHold == nil)
    }

    @Test func aFingerLiftedAt049SecondsIsNoHold() {
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.49
        _ = h.frame()
        h.lift()
        h.time = down + 0.6
        _ = h.frame()
        #expect(h.scene.pageHold == nil)
    }

    @Test func theTouchFramesAloneSeeTheHold() {
        // A panel that repeats a resting finger's frame: no frame(at:) in between.
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.5
        h.touch(Point(x: onPhoto.x + 3, y: onPhoto.y - 4))
        #expect(h.scene.pageHold == PageHold(index: 2, time: down + 0.5))
    }

    @Test func movingPastTheTapSlopCancelsIt() {
        // 11 px before the half second: no hold, then or later.
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.2
        h.touch(Point(x: onPhoto.x + 11, y: onPhoto.y))
        h.time = down + 0.7
        _ = h.frame()
        #expect(h.scene.pageHold == nil)

        // 11 px after it: the hold ends there.
        let h2 = opened()
        let down2 = h2.time
        h2.touch(onPhoto)
        h2.time = down2 + 0.6
        _ = h2.frame()
        #expect(h2.scene.pageHold != nil)
        h2.time += 0.1
        h2.touch(Point(x: onPhoto.x, y: onPhoto.y - 11))
        #expect(h2.scene.pageHold == nil)
        h2.time += 0.5
        _ = h2.frame()
        #expect(h2.scene.pageHold == nil)

        // 9 px is still resting.
        let h3 = opened()
        let down3 = h3.time
        h3.touch(onPhoto)
        h3.time = down3 + 0.2
        h3.touch(Point(x: onPhoto.x + 9, y: onPhoto.y))
        h3.time = down3 + 0.5
        _ = h3.frame()
        #expect(h3.scene.pageHold == PageHold(index: 2, time: down3 + 0.5))
    }

    @Test func aDragAfterAPauseIsADismissAsBefore() {
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.2
        _ = h.frame()
        h.move(duration: 0.5) { s in Point(x: 540, y: 960 + 150 * s) }
        #expect(h.frame().mode == .dismissing)
        #expect(h.scene.pageHold == nil)
        h.lift()
        #expect(h.settle().mode == .grid)
        #expect(h.scene.pageHold == nil)
    }

    @Test func tapsAndDoubleTapsAreAsBefore() {
        let h = opened()
        h.doubleTap(onPhoto)
        #expect(h.scene.pageHold == nil)
        h.settle()
        #expect(h.scene.pager.isZoomed)
        // A zoomed page is no hold.
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.6
        _ = h.frame()
        #expect(h.scene.pageHold == nil)
        h.lift()

        // In the grid a tap opens, as always.
        let grid = Harness()
        grid.tap(grid.scene.grid.cellRect(of: 5).center)
        #expect(grid.settle().mode == .pager && grid.scene.currentIndex == 5)
    }

    @Test func aHoldNeverMakesADoubleTapEvenWithALongTapTimeout() {
        var parameters = SceneParameters()
        parameters.gestures.tapTimeout = 0.8
        let h = opened(parameters: parameters)
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.6
        _ = h.frame()
        #expect(h.scene.pageHold != nil)
        h.lift()
        // A quick tap after the held one: no double-tap zoom.
        h.time += 0.1
        h.tap(onPhoto)
        h.settle()
        #expect(!h.scene.pager.isZoomed)
        // The same two taps without the hold zoom.
        h.doubleTap(onPhoto)
        h.settle()
        #expect(h.scene.pager.isZoomed)
    }

    @Test func aSecondFingerClearsIt() {
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.6
        _ = h.frame()
        #expect(h.scene.pageHold != nil)
        h.time += 0.01
        h.touch([onPhoto, Point(x: 700, y: 1100)])
        #expect(h.scene.pageHold == nil)
        h.time += 0.5
        _ = h.frame()
        #expect(h.scene.pageHold == nil)

        // A pinch that began before the half second: none at all.
        let h2 = opened()
        let down2 = h2.time
        h2.pinch(center: onPhoto, from: 300, to: 310, duration: 0.1)
        h2.time = down2 + 0.8
        _ = h2.frame()
        #expect(h2.scene.pageHold == nil)
        // Fingers too close for a pinch are two fingers all the same.
        let h3 = opened()
        let down3 = h3.time
        h3.touch([onPhoto, Point(x: onPhoto.x + 0.5, y: onPhoto.y)])
        h3.time = down3 + 0.6
        _ = h3.frame()
        #expect(h3.scene.pageHold == nil)
    }

    @Test func onlyOnThePictureAndAtRest() {
        // The black above a landscape photo.
        let h = opened()
        let down = h.time
        h.touch(Point(x: 540, y: 200))
        h.time = down + 0.6
        _ = h.frame()
        #expect(h.scene.pageHold == nil)
        h.lift()

        // A page still settling after a swipe is caught where it is, not held.
        let h2 = opened()
        h2.drag(from: Point(x: 700, y: 960), to: Point(x: 600, y: 960), duration: 0.1)
        #expect(h2.scene.currentIndex == 3)
        h2.time += 0.05
        let down2 = h2.time
        h2.touch(onPhoto)
        h2.time = down2 + 0.6
        _ = h2.frame()
        #expect(h2.scene.pageHold == nil)

        // A transition is no pager: a touch on the opening photo catches it.
        let h3 = Harness()
        h3.tap(h3.scene.grid.cellRect(of: 2).center)
        h3.time += 0.1
        let moving = h3.frame().movingPhoto!.rect
        h3.touch(moving.center)
        h3.time += 0.6
        _ = h3.frame()
        #expect(h3.scene.pageHold == nil)
    }

    @Test func aRescanKeepsTheHoldWhileItsPageStaysCurrent() {
        let h = opened()
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.5
        _ = h.frame()
        h.scene.setPhotoSizes(Harness.photoSizes(201))
        #expect(h.scene.pageHold == PageHold(index: 2, time: down + 0.5))
        // The open photo now has another index: the finger rests on what it was, no longer held.
        h.scene.setPhotoSizes(Harness.photoSizes(202), openPhoto: .movedTo(1))
        #expect(h.scene.pageHold == nil)
        h.time += 0.5
        _ = h.frame()
        #expect(h.scene.pageHold == nil)
    }

    @Test func holdingTheNextPageAfterPaging() {
        let h = opened()
        h.drag(from: Point(x: 700, y: 960), to: Point(x: 600, y: 960), duration: 0.1)
        h.settle()
        #expect(h.scene.currentIndex == 3)
        let down = h.time
        h.touch(onPhoto)
        h.time = down + 0.5
        _ = h.frame()
        #expect(h.scene.pageHold == PageHold(index: 3, time: down + 0.5))
    }
}
