@testable import Blitter
import Geometry
import TestSupport
import Testing

@Suite struct MaskBlendTests {
    /// The vector loop against the per-pixel definition, over random pictures, masks, alphas,
    /// placements (part off the bitmap) and clips.
    @Test func matchesTheReferenceEverywhere() {
        var rng = SplitMix64(seed: 1016)
        for round in 0..<60 {
            let background = TestImages.random(width: 37, height: 23, using: &rng)
            var mask = AlphaMask(width: 1 + Int(rng.next() % 30), height: 1 + Int(rng.next() % 20))
            for i in mask.coverage.indices {
                // Mostly empty with full and partial coverage, like text.
                switch rng.next() % 4 {
                case 0: mask.coverage[i] = 255
                case 1: mask.coverage[i] = UInt8(truncatingIfNeeded: rng.next())
                default: mask.coverage[i] = 0
                }
            }
            let origin = (x: Int(rng.next() % 50) - 10, y: Int(rng.next() % 30) - 6)
            let alpha = round % 5 == 0 ? 1.0 : Double(rng.next() % 1000) / 1000
            let clip = PixelRect(x: Int(rng.next() % 10), y: Int(rng.next() % 6), width: 30, height: 20)
            let color = UInt32(truncatingIfNeeded: rng.next()) & 0x00FF_FFFF
            var drawn = background
            drawn.blend(color, through: mask, at: origin, alpha: alpha, clip: clip)
            for y in 0..<background.height {
                for x in 0..<background.width {
                    let inside = (clip.minX..<clip.maxX).contains(x) && (clip.minY..<clip.maxY).contains(y) && x >= origin.x && y >= origin.y
                        && x < origin.x + mask.width && y < origin.y + mask.height
                    let expected = inside
                        ? Bitmap.referenceMaskBlend(color, over: background[x, y], coverage: mask[x - origin.x, y - origin.y], alpha: alpha)
                        : background[x, y]
                    #expect(drawn[x, y] == expected, "round \(round) at \(x),\(y)")
                    if drawn[x, y] != expected { return }
                }
            }
        }
    }

    @Test func fullCoverageAtFullAlphaIsTheColour() {
        var mask = AlphaMask(width: 8, height: 1)
        mask.coverage = [255, 255, 0, 0, 255, 128, 0, 255]
        var bitmap = Bitmap(width: 8, height: 1, color: 0x10_20_30)
        bitmap.blend(Pixel.white, through: mask, at: (0, 0), alpha: 1, clip: bitmap.bounds)
        #expect(bitmap.pixels.enumerated().map { $0.element == Pixel.white } == [true, true, false, false, true, false, false, true])
        #expect(bitmap[2, 0] == 0x10_20_30)
    }

    @Test func masksAddAndSaturate() {
        var mask = AlphaMask(width: 4, height: 2)
        mask.add([200, 100, 50, 60], width: 2, height: 2, at: 1, 0)
        mask.add([100, 100], width: 2, height: 1, at: 0, 0)  // 200 + 100 saturates
        mask.add([7, 9], width: 2, height: 1, at: -1, 1)  // half off the left edge
        #expect(mask.coverage == [100, 255, 100, 0, 9, 50, 60, 0])
    }
}
