import Testing
import Blitter
import Geometry
import TestSupport

@Suite struct FillTests {
    @Test func fillWritesOnlyTheVisiblePartOfTheRect() {
        // Stride wider than the width: the padding must stay untouched too.
        var bitmap = Bitmap(width: 10, height: 8, stride: 12, color: TestImages.untouched)
        let rect = PixelRect(x: -3, y: 5, width: 8, height: 20)
        bitmap.fill(rect, color: TestImages.red)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.stride {
                let inside = x < bitmap.width && x >= -3 && x < 5 && y >= 5
                #expect(bitmap.pixels[y * bitmap.stride + x] == (inside ? TestImages.red : TestImages.untouched), "(\(x), \(y))")
            }
        }
    }

    @Test func longFillsStopExactlyAtTheirEnds() {
        // Fills of 2 KB and more take another path than short ones: rows of 511, 512 and 513
        // pixels, inside a wider stride, and a block of whole rows, each with its neighbours intact.
        for width in [511, 512, 513] {
            var bitmap = Bitmap(width: 600, height: 4, stride: 640, color: TestImages.untouched)
            bitmap.fill(PixelRect(x: 3, y: 1, width: width, height: 2), color: TestImages.red)
            for y in 0..<4 {
                for x in 0..<640 {
                    let inside = x >= 3 && x < 3 + width && (1...2).contains(y)
                    #expect(bitmap.pixels[y * 640 + x] == (inside ? TestImages.red : TestImages.untouched),
                            "row width \(width), (\(x), \(y))")
                }
            }
        }
        var block = Bitmap(width: 300, height: 10, color: TestImages.untouched)
        block.fill(PixelRect(x: 0, y: 2, width: 300, height: 7), color: TestImages.blue)
        for y in 0..<10 {
            #expect(block.pixels[y * 300..<(y + 1) * 300].allSatisfy { $0 == ((2..<9).contains(y) ? TestImages.blue : TestImages.untouched) },
                    "row \(y)")
        }
    }

    @Test func fillOutsideTheBitmapChangesNothing() {
        var bitmap = Bitmap(width: 4, height: 4, color: TestImages.untouched)
        bitmap.fill(PixelRect(x: 4, y: 0, width: 10, height: 10), color: TestImages.red)
        bitmap.fill(PixelRect(x: -10, y: -10, width: 10, height: 30), color: TestImages.red)
        bitmap.fill(PixelRect(x: 1, y: 1, width: 0, height: 2), color: TestImages.red)
        #expect(bitmap.pixels.allSatisfy { $0 == TestImages.untouched })
    }

    @Test func halfBlackOverWhiteIsMidGrey() {
        var bitmap = Bitmap(width: 3, height: 3, color: Pixel.white)
        bitmap.blend(bitmap.bounds, color: Pixel.black, alpha: 0.5)
        for p in bitmap.pixels {
            for channel in TestImages.channels(p) { #expect(channel == 0x7F || channel == 0x80) }
        }
    }

    @Test func alphaZeroLeavesTheDestinationAndAlphaOneGivesTheColor() {
        var rng = SplitMix64(seed: 1)
        let original = TestImages.random(width: 9, height: 7, using: &rng)
        var bitmap = original
        bitmap.blend(bitmap.bounds, color: TestImages.green, alpha: 0)
        #expect(bitmap.pixels == original.pixels)
        bitmap.blend(PixelRect(x: 2, y: 2, width: 3, height: 3), color: TestImages.green, alpha: 1)
        for y in 0..<7 {
            for x in 0..<9 {
                let inside = (2..<5).contains(x) && (2..<5).contains(y)
                #expect(bitmap[x, y] == (inside ? TestImages.green : original[x, y]))
            }
        }
    }

    @Test func blendRoundsAsDocumentedForEveryAlpha() {
        var rng = SplitMix64(seed: 2)
        for a in 0...256 {
            let color = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            var bitmap = TestImages.random(width: 16, height: 2, using: &rng)
            let before = bitmap
            bitmap.blend(PixelRect(x: -1, y: -1, width: 100, height: 100), color: color, alpha: Double(a) / 256)
            for (old, new) in zip(before.pixels, bitmap.pixels) {
                let expected = zip(TestImages.channels(color), TestImages.channels(old)).map { s, d in (s * a + d * (256 - a) + 128) / 256 }
                #expect(TestImages.channels(new) == expected, "alpha \(a)")
            }
        }
    }
}
