import Testing
@testable import Blitter
import Geometry
import TestSupport

@Suite struct ScaleTests {
    static func scaled(_ source: Bitmap, width: Int, height: Int, quality: ScaleQuality = .bilinear) -> Bitmap {
        var out = Bitmap(width: width, height: height, color: TestImages.untouched)
        out.drawScaled(source, sourceRect: Rect(origin: .zero, size: source.size), into: Rect(origin: .zero, size: out.size),
                       clip: out.bounds, quality: quality)
        return out
    }

    @Test func edgeToEdgeUpscaleKeepsCorners() {
        let source = TestImages.distinct(width: 4, height: 4)
        for quality in [ScaleQuality.bilinear, .nearest] {
            #expect(TestImages.corners(of: Self.scaled(source, width: 13, height: 9, quality: quality)) == TestImages.corners(of: source))
        }
    }

    @Test func edgeToEdgeDownscaleKeepsCornerColors() {
        var rng = SplitMix64(seed: 4)
        let source = TestImages.cornerBlocks(size: 100, block: 6, using: &rng)
        let expected = [TestImages.red, TestImages.green, TestImages.blue, TestImages.yellow]
        #expect(TestImages.corners(of: Self.scaled(source, width: 37, height: 37)) == expected)
        var viaMips = Bitmap(width: 37, height: 37)
        viaMips.drawScaled(MipChain(source), sourceRect: Rect(x: 0, y: 0, width: 100, height: 100),
                           into: Rect(x: 0, y: 0, width: 37, height: 37), clip: viaMips.bounds)
        #expect(TestImages.corners(of: viaMips) == expected)
    }

    @Test func constantColorStaysExactlyThatColor() {
        var rng = SplitMix64(seed: 5)
        let color = Pixel.rgb(201, 17, 99)
        let source = Bitmap(width: 23, height: 11, color: color)
        let mips = MipChain(source)
        for _ in 0..<40 {
            let sourceRect = Rect(x: Double.random(in: -3...15, using: &rng), y: Double.random(in: -3...8, using: &rng),
                                  width: Double.random(in: 0.3...30, using: &rng), height: Double.random(in: 0.3...20, using: &rng))
            let destination = Rect(x: Double.random(in: -20...40, using: &rng), y: Double.random(in: -20...40, using: &rng),
                                   width: Double.random(in: 0.5...90, using: &rng), height: Double.random(in: 0.5...90, using: &rng))
            for quality in [ScaleQuality.bilinear, .nearest] {
                var direct = Bitmap(width: 48, height: 40, color: TestImages.untouched)
                direct.drawScaled(source, sourceRect: sourceRect, into: destination, clip: direct.bounds, quality: quality)
                var viaMips = Bitmap(width: 48, height: 40, color: TestImages.untouched)
                viaMips.drawScaled(mips, sourceRect: sourceRect, into: destination, clip: viaMips.bounds, quality: quality)
                #expect(direct.pixels.allSatisfy { $0 == color || $0 == TestImages.untouched })
                #expect(viaMips.pixels.allSatisfy { $0 == color || $0 == TestImages.untouched })
            }
        }
    }

    @Test func writesExactlyThePixelsWhoseCentresAreInsideDestinationAndClip() {
        let source = Bitmap(width: 5, height: 5, color: TestImages.red)
        // Partly off screen on the left and the right, and clipped at the top.
        let destination = Rect(x: -30.3, y: 2.6, width: 200, height: 20.2)
        let clip = PixelRect(x: -100, y: 5, width: 1000, height: 1000)
        var bitmap = Bitmap(width: 100, height: 40, color: TestImages.untouched)
        bitmap.drawScaled(source, sourceRect: Rect(x: 0, y: 0, width: 5, height: 5), into: destination, clip: clip)
        for y in 0..<40 {
            // Row centres y + 0.5 inside [5, 22.8): rows 5 through 22.
            let inside = y >= 5 && y <= 22
            for x in 0..<100 {
                #expect(bitmap[x, y] == (inside ? TestImages.red : TestImages.untouched), "(\(x), \(y))")
            }
        }
    }

    @Test func degenerateRectsDrawNothingAndDoNotCrash() {
        let source = TestImages.distinct(width: 4, height: 4)
        var bitmap = Bitmap(width: 8, height: 8, color: TestImages.untouched)
        let bad: [(Rect, Rect)] = [
            (Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: .nan, y: 0, width: 8, height: 8)),
            (Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: 0, y: 0, width: .infinity, height: 8)),
            (Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: -1e300, y: 0, width: 1e300, height: 8)),
            (Rect(x: 0, y: 0, width: 0, height: 4), Rect(x: 0, y: 0, width: 8, height: 8)),
            (Rect(x: 10, y: 10, width: 4, height: 4), Rect(x: 0, y: 0, width: 8, height: 8)),
            (Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: 0, y: 0, width: -8, height: 8)),
        ]
        for (sourceRect, destination) in bad {
            bitmap.drawScaled(source, sourceRect: sourceRect, into: destination, clip: bitmap.bounds)
        }
        #expect(bitmap.pixels.allSatisfy { $0 == TestImages.untouched })
        // Huge but finite rects still draw the visible part.
        bitmap.drawScaled(source, sourceRect: Rect(x: 0, y: 0, width: 4, height: 4),
                          into: Rect(x: -1e12, y: -1e12, width: 3e12, height: 3e12), clip: bitmap.bounds)
        #expect(!bitmap.pixels.contains(TestImages.untouched))
    }

    @Test func fastPathMatchesTheReferenceWithinOneLevel() {
        var rng = SplitMix64(seed: 6)
        for round in 0..<150 {
            let source = TestImages.random(width: Int.random(in: 1...40, using: &rng), height: Int.random(in: 1...30, using: &rng),
                                           stride: nil, using: &rng)
            let sourceRect = Rect(x: Double.random(in: -2...Double(source.width), using: &rng),
                                  y: Double.random(in: -2...Double(source.height), using: &rng),
                                  width: Double.random(in: 0.2...Double(source.width + 3), using: &rng),
                                  height: Double.random(in: 0.2...Double(source.height + 3), using: &rng))
            let destination = Rect(x: Double.random(in: -30...50, using: &rng), y: Double.random(in: -30...50, using: &rng),
                                   width: Double.random(in: 0.5...80, using: &rng), height: Double.random(in: 0.5...80, using: &rng))
            let clip = PixelRect(x: Int.random(in: -5...30, using: &rng), y: Int.random(in: -5...30, using: &rng),
                                 width: Int.random(in: 0...60, using: &rng), height: Int.random(in: 0...60, using: &rng))
            let alpha = [1, 0.5, 0.03, Double.random(in: 0...1, using: &rng)][round % 4]
            let background = TestImages.random(width: 50, height: 45, stride: 53, using: &rng)
            for quality in [ScaleQuality.bilinear, .nearest] {
                let (_, worst) = TestImages.scaledAgainstReference(source, sourceRect: sourceRect, into: destination,
                                                                   over: background, clip: clip, quality: quality, alpha: alpha)
                #expect(worst <= (quality == .nearest ? 0 : 1), "round \(round) \(quality): \(sourceRect) -> \(destination) clip \(clip)")
            }
        }
    }

    @Test func enlargingMatchesTheReferenceWithinOneLevel() {
        // Wide enough for the enlarging pass's runs of four consecutive source columns (scales
        // near 1) as well as its gathered columns (larger scales), with and without alpha.
        var rng = SplitMix64(seed: 13)
        let source = TestImages.random(width: 160, height: 50, stride: 163, using: &rng)
        for (round, scale) in [1.0004, 1.0035, 1.07, 1.3, 1.5, 2.25, 3].enumerated() {
            let sourceRect = Rect(x: Double.random(in: 0...20, using: &rng), y: Double.random(in: 0...8, using: &rng),
                                  width: 130, height: 38)
            let destination = Rect(x: Double.random(in: -10...10, using: &rng), y: Double.random(in: -5...5, using: &rng),
                                   width: 130 * scale, height: 38 * Double.random(in: 1...scale, using: &rng))
            for alpha in [1, 0.4] {
                let background = TestImages.random(width: 230, height: 90, using: &rng)
                let (_, worst) = TestImages.scaledAgainstReference(source, sourceRect: sourceRect, into: destination,
                                                                   over: background, alpha: alpha)
                #expect(worst <= 1, "round \(round), scale \(scale), alpha \(alpha)")
            }
        }
    }

    @Test func aDrawSplitByClipsIsTheSameAsOneDraw() {
        // Sample positions are anchored to the destination, not to the clip: the renderer may
        // draw one photo in pieces, and the pieces must meet without a seam.
        var rng = SplitMix64(seed: 14)
        let source = TestImages.random(width: 90, height: 60, using: &rng)
        for scale in [0.37, 0.75, 1.0035, 1.6] {
            let destination = Rect(x: -3.3, y: 2.7, width: 90 * scale, height: 60 * scale)
            var whole = Bitmap(width: 160, height: 110, color: TestImages.untouched)
            whole.drawScaled(source, sourceRect: Rect(origin: .zero, size: source.size), into: destination, clip: whole.bounds)
            var pieces = Bitmap(width: 160, height: 110, color: TestImages.untouched)
            for clip in [PixelRect(x: 0, y: 0, width: 37, height: 110), PixelRect(x: 37, y: 0, width: 123, height: 41),
                         PixelRect(x: 37, y: 41, width: 123, height: 69)] {
                pieces.drawScaled(source, sourceRect: Rect(origin: .zero, size: source.size), into: destination, clip: clip)
            }
            let differing = zip(pieces.pixels, whole.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "scale \(scale)")
        }
    }

    @Test func resizedKeepsCorners() {
        let small = TestImages.distinct(width: 4, height: 4)
        #expect(TestImages.corners(of: small.resized(width: 13, height: 9)) == TestImages.corners(of: small))
        var rng = SplitMix64(seed: 7)
        let large = TestImages.cornerBlocks(size: 100, block: 6, using: &rng)
        let expected = [TestImages.red, TestImages.green, TestImages.blue, TestImages.yellow]
        #expect(TestImages.corners(of: large.resized(width: 37, height: 37)) == expected)
        #expect(TestImages.corners(of: large.resized(width: 60, height: 70)) == expected)
    }
}
