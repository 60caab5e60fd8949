import Foundation
import Testing
import Geometry
import TestSupport
@testable import Scene

@Suite struct GridTests {
    @Test func layoutHasSquareCellsWithSpacingAtTheEdges() {
        let grid = GridView(parameters: .init(), screenSize: Size(width: 1080, height: 1920), photoCount: 10)
        #expect(grid.cellSize == 265)
        #expect(grid.cellRect(of: 0) == Rect(x: 4, y: 4, width: 265, height: 265))
        #expect(grid.cellRect(of: 3) == Rect(x: 811, y: 4, width: 265, height: 265))
        #expect(grid.cellRect(of: 5) == Rect(x: 273, y: 273, width: 265, height: 265))
        #expect(grid.contentHeight == 4 + 3 * 269)
        #expect(grid.maxOffset == 0)
    }

    @Test func hitTestFindsTheCellUnderThePoint() {
        let grid = GridView(parameters: .init(), screenSize: Size(width: 1080, height: 1920), photoCount: 10)
        #expect(grid.index(at: Point(x: 10, y: 10)) == 0)
        #expect(grid.index(at: Point(x: 300, y: 300)) == 5)
        #expect(grid.index(at: Point(x: 1075, y: 10)) == 3)
        #expect(grid.index(at: Point(x: 270, y: 100)) == nil)  // spacing between columns
        #expect(grid.index(at: Point(x: 2, y: 100)) == nil)    // spacing at the edge
        #expect(grid.index(at: Point(x: 700, y: 600)) == nil)  // row 2 has photos 8 and 9 only
        #expect(grid.index(at: Point(x: 300, y: 600)) == 9)
    }

    @Test func visibleCellsAreTheOnesOnScreen() {
        let grid = GridView(parameters: .init(), screenSize: Size(width: 1080, height: 1920), photoCount: 200)
        let cells = grid.visibleCells()
        // Rows 0...7 reach into the screen (row 7 starts at 4 + 7 * 269 = 1887).
        #expect(cells.map(\.index) == Array(0..<32))
        #expect(cells.allSatisfy { $0.rect == grid.cellRect(of: $0.index) })
    }

    @Test func scrollToShowCentresACellOutOfViewAndNudgesAPartlyVisibleOne() {
        let grid = GridView(parameters: .init(), screenSize: Size(width: 1080, height: 1920), photoCount: 200)
        grid.scrollToShow(29)  // row 7, partly visible: its bottom edge plus spacing comes to the screen's bottom
        #expect(grid.offset == 1887 + 265 + 4 - 1920)
        grid.scrollToShow(100)  // row 25, far away: centred
        #expect(grid.cellRect(of: 100).midY == 960)
        grid.scrollToShow(101)  // same row, already visible: no change
        #expect(grid.cellRect(of: 100).midY == 960)
        grid.scrollToShow(199)  // the last row cannot be centred past the end
        #expect(grid.offset == grid.maxOffset)
    }

    @Test func scrollFollowsTheFingerOneToOne() {
        let h = Harness()
        h.touch(Point(x: 500, y: 1500))
        h.move(duration: 0.5) { s in Point(x: 500, y: 1500 - 700 * s) }
        #expect(h.frame().gridScroll == 700)
        h.move(duration: 0.2) { s in Point(x: 500, y: 800 + 100 * s) }
        #expect(h.frame().gridScroll == 600)
        // Resting before lifting: no coasting.
        h.time += 0.1
        h.lift()
        #expect(!h.scene.isAnimating)
        #expect(h.settle().gridScroll == 600)
    }

    @Test func flingDeceleratesByTheRatePerMillisecond() {
        let h = Harness()
        h.drag(from: Point(x: 500, y: 1700), to: Point(x: 500, y: 1400), duration: 0.2)  // 1500 px/s upward
        let release = h.time
        let start = h.frame().gridScroll
        #expect(h.scene.isAnimating)
        for ms in [50.0, 200, 500, 1000] {
            let expected = start + 1500 * (pow(0.998, ms) - 1) / (1000 * log(0.998))
            #expect(near(h.scene.frame(at: release + ms / 1000).gridScroll, expected, 0.5))
        }
        let rest = h.settle(10)
        #expect(near(rest.gridScroll, start + 1500 / (-1000 * log(0.998)), 0.5))
        #expect(!h.scene.isAnimating)
    }

    @Test func pastTheTopItRubberBandsAndSpringsBack() {
        let h = Harness()
        h.touch(Point(x: 500, y: 500))
        h.move(duration: 0.3) { s in Point(x: 500, y: 500 + 300 * s) }
        let expected = -(1 - 1 / (300 * 0.55 / 1920 + 1)) * 1920
        #expect(near(h.frame().gridScroll, expected))
        h.lift()
        #expect(h.scene.isAnimating)
        #expect(h.frame(after: 0.1).gridScroll > expected)
        #expect(h.frame(after: h.parameters.grid.bounce.duration).gridScroll == 0)
        #expect(!h.scene.isAnimating)
    }

    @Test func shortContentOnlyRubberBands() {
        let h = Harness(photoCount: 8)
        h.drag(from: Point(x: 500, y: 1500), to: Point(x: 500, y: 1000), duration: 0.2, lift: false)
        let shown = h.frame().gridScroll
        #expect(shown > 0 && shown < 500)
        h.lift()
        #expect(h.settle().gridScroll == 0)
    }

    @Test func aTouchThatStopsAScrollIsNotATap() {
        let h = Harness()
        h.drag(from: Point(x: 500, y: 1700), to: Point(x: 500, y: 1400), duration: 0.2)
        _ = h.frame(after: 0.1)
        h.tap(Point(x: 400, y: 960))
        let stopped = h.frame().gridScroll
        #expect(h.scene.mode == .grid)
        #expect(!h.scene.isAnimating)
        #expect(h.settle().gridScroll == stopped)
        // The next tap opens.
        h.tap(Point(x: 400, y: 960))
        #expect(h.scene.mode == .opening)
    }
}

@Suite struct GridDoubleTapTests {
    @Test func aQuickSecondTapAfterStoppingAScrollOpens() {
        let h = Harness()
        h.drag(from: Point(x: 500, y: 1700), to: Point(x: 500, y: 1400), duration: 0.2)
        _ = h.frame(after: 0.1)
        h.tap(Point(x: 400, y: 960))   // stops the scroll
        h.time += 0.1
        h.tap(Point(x: 400, y: 960))   // a double tap for the recogniser, a tap for the grid
        #expect(h.scene.mode == .opening)
    }
}

@Suite struct GridEdgeTests {
    @Test func aFlingPastTheEndOvershootsAndSpringsBackToTheEdge() {
        let h = Harness(photoCount: 60)  // 15 rows: max offset 4 + 15 * 269 - 1920 = 2119
        h.drag(from: Point(x: 500, y: 1800), to: Point(x: 500, y: 1000), duration: 0.2)  // 4000 px/s
        var overshot = false
        for _ in 0..<200 {
            let frame = h.frame(after: 1.0 / 60)
            if frame.gridScroll > h.scene.grid.maxOffset + 1 { overshot = true }
        }
        #expect(overshot)
        #expect(h.frame().gridScroll == h.scene.grid.maxOffset)
        #expect(!h.scene.isAnimating)
    }
}
