import Geometry
import Testing
@testable import Scene

/// `kiosk.idle_action = "grid"`: the open photo zooms back into its cell, then the grid is at its top.
@Suite struct IdleReturnTests {
    @Test func theOpenPhotoClosesIntoItsCellThenTheGridScrollsToTheTop() {
        let h = Harness(photoCount: 200)
        h.open(5)
        // Page far enough that the grid had to scroll to keep the current cell visible.
        for _ in 0..<60 { h.scene.showNext(at: h.time); _ = h.settle() }
        #expect(h.scene.currentIndex == 65)
        let before = h.frame()
        #expect(before.gridScroll > 0)

        h.scene.returnToStart(at: h.time)
        let closing = h.frame(after: 0.1)
        #expect(closing.mode == .closing)
        // During the closing the grid stays where the cell is, so the photo lands in it.
        #expect(closing.gridScroll == before.gridScroll)
        let cell = closing.gridCells.first { $0.index == 65 }?.rect
        let landed = h.frame(after: 0.2)
        #expect(landed.mode == .grid)
        #expect(landed.gridScroll == 0)
        #expect(cell != nil)
    }

    @Test func inTheGridItOnlyScrollsToTheTop() {
        let h = Harness(photoCount: 200)
        h.drag(from: Point(x: 500, y: 1500), to: Point(x: 500, y: 300), duration: 0.3)
        _ = h.settle(3)
        #expect(h.frame().gridScroll > 0)
        h.scene.returnToStart(at: h.time)
        #expect(h.frame().gridScroll == 0)
        #expect(h.frame().mode == .grid)
        #expect(!h.scene.isAnimating)
    }

    /// Closing time (opening hours): whatever is open is in the grid at once, at its first row.
    @Test func resetToGridIsImmediateFromThePagerAndFromATransition() {
        let h = Harness(photoCount: 200)
        h.open(5)
        for _ in 0..<60 { h.scene.showNext(at: h.time); _ = h.settle() }
        #expect(h.frame().mode == .pager)
        h.scene.resetToGrid(at: h.time)
        let closed = h.frame()
        #expect(closed.mode == .grid)
        #expect(closed.gridScroll == 0)
        #expect(closed.hiddenIndex == nil)
        #expect(!h.scene.isAnimating)

        // Caught while opening, with a finger down: the grid at once, and that finger drives nothing.
        h.scene.open(3, at: h.time)
        _ = h.frame(after: 0.1)
        #expect(h.frame().mode == .opening)
        h.touch(Point(x: 500, y: 500))
        h.scene.resetToGrid(at: h.time)
        #expect(h.frame().mode == .grid)
        h.drag(from: Point(x: 500, y: 500), to: Point(x: 500, y: 100), duration: 0.3)
        #expect(h.settle().gridScroll == 0)
        #expect(h.frame().mode == .grid)
    }
}
