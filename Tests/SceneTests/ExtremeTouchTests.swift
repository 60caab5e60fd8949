import Geometry
import Testing
import Touch
@testable import Scene

/// Touches no panel makes but a driver, a recording or a calibration can (issue #22): points at
/// 1e308, infinities and NaN, samples a nanosecond apart (a velocity of 1e12 px/s and more). The
/// scene keeps every frame finite and every conversion to whole cells and pixels sane, whatever
/// it was fed: in the grid, the pager and a zoomed photo.
@Suite struct ExtremeTouchTests {
    static let wild: [Point] = [
        Point(x: 1e308, y: -1e308), Point(x: .nan, y: 10), Point(x: .infinity, y: -.infinity),
        Point(x: 500, y: 900), Point(x: -1e308, y: 1e308), Point(x: 10, y: .nan),
    ]

    static func isFinite(_ rect: Rect) -> Bool {
        rect.minX.isFinite && rect.minY.isFinite && rect.width.isFinite && rect.height.isFinite
    }

    /// Plays strokes between wild points, 1 ns apart, one finger and two, then lets the physics
    /// run for 10 s; every frame on the way is finite.
    static func assault(_ harness: Harness, _ what: String) {
        for (a, b) in zip(wild, wild.dropFirst() + wild.prefix(1)) {
            harness.touch(Point(x: 540, y: 960))
            harness.time += 1e-9
            harness.touch(a)
            harness.time += 1e-9
            harness.touch(b)
            harness.time += 1e-9
            harness.touch([a, b])
            harness.time += 1e-9
            harness.touch([Point(x: 540, y: 960), b])
            harness.time += 1e-9
            harness.lift()
            check(harness.frame(after: 0.016), what)
        }
        for _ in 0..<600 { check(harness.frame(after: 1.0 / 60), what) }
    }

    static func check(_ frame: SceneFrame, _ what: String) {
        #expect(frame.gridScroll.isFinite, "\(what): grid scroll \(frame.gridScroll)")
        #expect(frame.backgroundAlpha.isFinite, "\(what)")
        for cell in frame.gridCells { #expect(isFinite(cell.rect), "\(what): cell \(cell)") }
        for page in frame.pages + (frame.movingPhoto.map { [$0] } ?? []) {
            #expect(isFinite(page.rect) && page.alpha.isFinite, "\(what): page \(page)")
            _ = page.rect.enclosingPixels
        }
    }

    @Test func wildTouchesKeepTheGridFinite() {
        let harness = Harness(photoCount: 500)
        Self.assault(harness, "grid")
    }

    @Test func wildTouchesKeepThePagerAndAZoomedPhotoFinite() {
        let harness = Harness(photoCount: 50)
        harness.tap(Point(x: 200, y: 200))
        _ = harness.frame(after: 1)
        Self.assault(harness, "pager")
        harness.tap(Point(x: 540, y: 960))
        _ = harness.frame(after: 1)
        harness.doubleTap(Point(x: 540, y: 960))
        _ = harness.frame(after: 1)
        Self.assault(harness, "zoomed")
    }

    @Test func theGridFindsNoCellAtPointsOffEveryScale() {
        let grid = GridView(parameters: SceneParameters().grid, screenSize: Harness.screenSize, photoCount: 100)
        for point in Self.wild + [Point(x: 1e18, y: 1e18), Point(x: 100, y: 1e300)] where !(point.x == 500 && point.y == 900) {
            #expect(grid.index(at: point) == nil, "\(point)")
        }
    }
}

/// The whole-pixel conversions every module uses for values computed from outside.
@Suite struct SaturatingConversionTests {
    @Test func doublesPastIntsRangeSaturateAndNaNIsZero() {
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: .infinity) == .max && Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: 1e308) == .max && Int(saturating: -1e308) == .min)
        #expect(Int(saturating: 9_223_372_036_854_775_808.0) == .max)
        #expect(Int(saturating: -9_223_372_036_854_775_808.0) == .min)
        #expect(Int(saturating: -2.7) == -2 && Int(saturating: 2.7) == 2)
        #expect(Int(flooringSaturating: -2.5) == -3 && Int(flooringSaturating: .nan) == 0)
        #expect(Int32(saturating: 3e9) == .max && Int32(saturating: -3e9) == .min && Int32(saturating: .nan) == 0)
        #expect(Int(pixel: 1e308) == 2_147_483_648 && Int(pixel: -.infinity) == -2_147_483_648 && Int(pixel: .nan) == 0)
        #expect(Double.nan.bounded(by: 0...1) == 0 && 7.0.bounded(by: 0...1) == 1)
    }

    @Test func aRectOffEveryScaleHasSaneEnclosingPixels() {
        let huge = Rect(x: -1e308, y: -.infinity, width: .infinity, height: 1e308).enclosingPixels
        #expect(huge.width >= 0 && huge.height >= 0)
        let notANumber = Rect(x: .nan, y: 5, width: .nan, height: 2).enclosingPixels
        #expect(notANumber.x == 0 && notANumber.width == 0 && notANumber.height == 2)
    }
}
