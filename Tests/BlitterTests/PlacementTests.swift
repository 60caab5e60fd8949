import Testing
import Blitter
import Geometry
import TestSupport

@Suite struct PlacementTests {
    let photo = TestImages.redBlue(width: 200, height: 100)
    let frame = Rect(x: 10, y: 10, width: 50, height: 50)

    @Test(arguments: [false, true])
    func aspectFillCoversTheFrameWithBothHalvesAndNothingOutside(viaMips: Bool) {
        var bitmap = Bitmap(width: 70, height: 70, color: TestImages.untouched)
        if viaMips {
            bitmap.drawAspectFill(MipChain(photo), in: frame, clip: bitmap.bounds)
        } else {
            bitmap.drawAspectFill(photo, in: frame, clip: bitmap.bounds)
        }
        for y in 0..<70 {
            for x in 0..<70 {
                let p = bitmap[x, y]
                guard (10..<60).contains(x), (10..<60).contains(y) else {
                    #expect(p == TestImages.untouched, "(\(x), \(y)) outside the frame")
                    continue
                }
                // The crop is the middle square of the photo, so the colour split is the frame's middle.
                if x < 34 { #expect(p == TestImages.red, "(\(x), \(y))") }
                if x > 35 { #expect(p == TestImages.blue, "(\(x), \(y))") }
                if x == 34 { #expect(Pixel.red(p) > Pixel.blue(p)) }
                if x == 35 { #expect(Pixel.blue(p) > Pixel.red(p)) }
            }
        }
    }

    @Test func aspectFillRespectsTheClip() {
        var bitmap = Bitmap(width: 70, height: 70, color: TestImages.untouched)
        let clip = PixelRect(x: 0, y: 30, width: 40, height: 40)
        bitmap.drawAspectFill(photo, in: frame, clip: clip)
        for y in 0..<70 {
            for x in 0..<70 {
                let written = bitmap[x, y] != TestImages.untouched
                #expect(written == ((10..<40).contains(x) && (30..<60).contains(y)), "(\(x), \(y))")
            }
        }
    }

    @Test(arguments: [false, true])
    func aspectFitLeavesTheLetterboxUntouched(viaMips: Bool) {
        var bitmap = Bitmap(width: 70, height: 70, color: TestImages.untouched)
        if viaMips {
            bitmap.drawAspectFit(MipChain(photo), in: frame, clip: bitmap.bounds)
        } else {
            bitmap.drawAspectFit(photo, in: frame, clip: bitmap.bounds)
        }
        // The photo becomes 50x25 centred in the frame: y from 22.5 to 47.5, rows 22 through 46.
        for y in 0..<70 {
            for x in 0..<70 {
                let p = bitmap[x, y]
                if (10..<60).contains(x) && (22...46).contains(y) {
                    #expect(p != TestImages.untouched, "(\(x), \(y))")
                    if x < 34 { #expect(p == TestImages.red) }
                    if x > 35 { #expect(p == TestImages.blue) }
                } else {
                    #expect(p == TestImages.untouched, "(\(x), \(y))")
                }
            }
        }
    }
}
