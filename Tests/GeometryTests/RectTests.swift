import Testing
@testable import Geometry

@Suite struct RectTests {
    @Test func aspectFitOfWidePhotoTouchesTheSides() {
        let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let fit = screen.aspectFit(Size(width: 4000, height: 1000))
        #expect(fit == Rect(x: 0, y: 300, width: 1920, height: 480))
    }

    @Test func aspectFitOfTallPhotoTouchesTopAndBottom() {
        let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let fit = screen.aspectFit(Size(width: 1200, height: 1800))
        #expect(fit == Rect(x: 600, y: 0, width: 720, height: 1080))
    }

    @Test func aspectFillCoversTheCell() {
        let cell = Rect(x: 10, y: 10, width: 100, height: 100)
        let fill = cell.aspectFill(Size(width: 300, height: 200))
        #expect(fill == Rect(x: -15, y: 10, width: 150, height: 100))
    }

    @Test func intersectionOfDisjointRectsIsNil() {
        #expect(Rect(x: 0, y: 0, width: 10, height: 10).intersection(Rect(x: 20, y: 0, width: 5, height: 5)) == nil)
    }

    @Test func enclosingPixelsRoundsOutward() {
        #expect(Rect(x: 0.5, y: 1.2, width: 2, height: 2).enclosingPixels == PixelRect(x: 0, y: 1, width: 3, height: 3))
    }
}
