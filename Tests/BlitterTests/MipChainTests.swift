import Testing
@testable import Blitter
import Geometry
import TestSupport

@Suite struct MipChainTests {
    @Test func levelsHalveDownToOnePixel() {
        let chain = MipChain(Bitmap(width: 13, height: 5))
        #expect(chain.levels.map { [$0.width, $0.height] } == [[13, 5], [6, 2], [3, 1], [1, 1]])
        #expect(chain.byteCount == (13 * 5 + 6 * 2 + 3 + 1) * 4)
    }

    @Test func halvingAveragesEachBlockRounded() {
        var bitmap = Bitmap(width: 2, height: 2)
        bitmap[0, 0] = Pixel.rgb(0, 10, 255)
        bitmap[1, 0] = Pixel.rgb(1, 20, 255)
        bitmap[0, 1] = Pixel.rgb(0, 30, 255)
        bitmap[1, 1] = Pixel.rgb(1, 41, 254)
        // (0+1+0+1)/4 = 0.5 -> 1, (10+20+30+41)/4 = 25.25 -> 25, (255*3+254)/4 = 254.75 -> 255.
        #expect(bitmap.halved()[0, 0] == Pixel.rgb(1, 25, 255))
    }

    @Test func checkerboardShrunkEightTimesIsMidGreyOnlyThroughTheMips() {
        let board = TestImages.checkerboard(size: 256)
        let sourceRect = Rect(x: 0, y: 0, width: 256, height: 256)
        // 256 -> 30 is 8.53x: plain bilinear samples land on single squares here and there.
        let destination = Rect(x: 0, y: 0, width: 30, height: 30)

        var viaMips = Bitmap(width: 30, height: 30)
        viaMips.drawScaled(MipChain(board), sourceRect: sourceRect, into: destination, clip: viaMips.bounds)
        let mipChannels = viaMips.pixels.flatMap(TestImages.channels)
        #expect(mipChannels.allSatisfy { (126...129).contains($0) })

        var naive = Bitmap(width: 30, height: 30)
        naive.drawScaled(board, sourceRect: sourceRect, into: destination, clip: naive.bounds)
        let naiveChannels = naive.pixels.flatMap(TestImages.channels)
        #expect(naiveChannels.contains { $0 < 64 || $0 > 192 })
    }

    @Test func mipDrawingOfAModerateScaleUsesTheImageItself() {
        var rng = SplitMix64(seed: 8)
        let image = TestImages.random(width: 40, height: 30, using: &rng)
        let sourceRect = Rect(x: 3.5, y: 2, width: 30, height: 20)
        let destination = Rect(x: 1.25, y: 0.5, width: 21, height: 15) // 1.43x: no level is needed
        var viaMips = Bitmap(width: 24, height: 18), direct = viaMips
        viaMips.drawScaled(MipChain(image), sourceRect: sourceRect, into: destination, clip: viaMips.bounds)
        direct.drawScaled(image, sourceRect: sourceRect, into: destination, clip: direct.bounds)
        #expect(viaMips.pixels == direct.pixels)
    }
}
