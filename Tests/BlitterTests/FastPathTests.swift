import Testing
@testable import Blitter
import Geometry
import TestSupport

/// The vector (four pixels at a time) paths against the scalar definitions, on random pictures
/// and rects with odd widths so that both the vector body and the one-pixel tails run.
@Suite struct FastPathTests {
    @Test func blendedCopyMatchesTheScalarFormulaForEveryAlpha() {
        var rng = SplitMix64(seed: 11)
        for a in 0...256 {
            let source = TestImages.random(width: 37, height: 3, stride: 41, using: &rng)
            let background = TestImages.random(width: 45, height: 4, using: &rng)
            var blended = background
            let x = Int.random(in: -3...8, using: &rng)
            blended.blend(from: source, to: (x: x, y: 1), alpha: Double(a) / 256)
            for py in 0..<background.height {
                for px in 0..<background.width {
                    let sx = px - x, sy = py - 1
                    guard sx >= 0, sx < source.width, sy >= 0, sy < source.height, a > 0 else {
                        #expect(blended[px, py] == background[px, py])
                        continue
                    }
                    #expect(blended[px, py] == PixelMath.referenceBlend(source[sx, sy], over: background[px, py], alpha: a),
                            "alpha \(a) at \(px),\(py)")
                }
            }
        }
    }

    @Test func blendOverASourceIsCopyThenBlend() {
        var rng = SplitMix64(seed: 12)
        for round in 0..<60 {
            let layer = TestImages.random(width: 50, height: 20, using: &rng)
            let start = TestImages.random(width: 50, height: 20, stride: 52, using: &rng)
            let rect = PixelRect(x: Int.random(in: -5...40, using: &rng), y: Int.random(in: -5...15, using: &rng),
                                 width: Int.random(in: 0...60, using: &rng), height: Int.random(in: 0...25, using: &rng))
            let color = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            let alpha = [0, 1, 0.6, Double.random(in: 0...1, using: &rng)][round % 4]
            var fused = start
            fused.blend(rect, color: color, alpha: alpha, over: layer)
            var twoSteps = start
            let area = rect.intersection(twoSteps.bounds)
            twoSteps.copy(from: layer, sourceRect: area, to: (area.minX, area.minY))
            twoSteps.blend(area, color: color, alpha: alpha)
            for y in 0..<start.height {
                for x in 0..<start.width {
                    #expect(fused[x, y] == twoSteps[x, y], "round \(round) at \(x),\(y)")
                }
            }
        }
    }

    @Test func bilinearMatchesTheReferenceOnLargerPicturesAtEveryKindOfScale() {
        var rng = SplitMix64(seed: 13)
        let source = TestImages.random(width: 203, height: 61, using: &rng)
        // Shrinking, enlarging, a hair's enlargement (every pixel interpolated), 1:1 at
        // fractional offsets across, down or both (the sliding paths), and 1:1 exactly.
        let cases: [(Rect, Rect)] = [
            (Rect(x: 0, y: 0, width: 203, height: 61), Rect(x: 0.3, y: 1.7, width: 152.25, height: 45.75)),
            (Rect(x: 0, y: 0, width: 203, height: 61), Rect(x: 0, y: 0, width: 101.5, height: 30.5)),
            (Rect(x: 10.5, y: 3.25, width: 60, height: 20), Rect(x: -7, y: 2, width: 190, height: 58)),
            (Rect(x: 0.1, y: 0.05, width: 202.8, height: 60.9), Rect(x: 0, y: 0, width: 203, height: 61)),
            (Rect(x: 0, y: 0, width: 203, height: 61), Rect(x: 0.37, y: -0.6, width: 203, height: 61)),
            (Rect(x: 0, y: 0, width: 203, height: 61), Rect(x: 0.37, y: 3, width: 203, height: 61)),
            (Rect(x: 0, y: 0, width: 203, height: 61), Rect(x: 2, y: 0.4, width: 203, height: 61)),
            (Rect(x: 5.5, y: 0, width: 150, height: 61), Rect(x: -3, y: 1, width: 150, height: 61)),
            (Rect(x: 0, y: 0, width: 203, height: 61), Rect(x: 1, y: 2, width: 203, height: 61)),
        ]
        for (sourceRect, destination) in cases {
            for alpha in [1, 0.6] {
                let background = TestImages.random(width: 210, height: 64, using: &rng)
                let (fast, worst) = TestImages.scaledAgainstReference(source, sourceRect: sourceRect, into: destination,
                                                                      over: background, alpha: alpha)
                #expect(worst <= 1, "\(sourceRect) -> \(destination) alpha \(alpha)")
                #expect(fast.pixels.allSatisfy { $0 >> 24 == 0 }, "the x byte stays 0")
            }
        }
    }

    @Test func exactOneToOneScaleIsACopy() {
        var rng = SplitMix64(seed: 14)
        let source = TestImages.random(width: 33, height: 9, using: &rng)
        var scaled = Bitmap(width: 40, height: 12, color: TestImages.untouched)
        scaled.drawScaled(source, sourceRect: Rect(x: 0, y: 0, width: 33, height: 9),
                          into: Rect(x: 3, y: 2, width: 33, height: 9), clip: scaled.bounds)
        var copied = Bitmap(width: 40, height: 12, color: TestImages.untouched)
        copied.copy(from: source, to: (3, 2))
        #expect(scaled.pixels == copied.pixels)
    }

    /// Shrinking reads each destination pixel's pair of source columns; at the right edge the
    /// pair is moved left so nothing is read past the row. Narrow sources, crops ending at the
    /// edge and clipped tails of one to three pixels all stay within a level of the reference.
    @Test func bilinearShrinkStaysWithinTheRowAtTheEdges() {
        var rng = SplitMix64(seed: 15)
        for (width, height) in [(2, 3), (3, 7), (9, 4), (37, 11)] {
            let source = TestImages.random(width: width, height: height, using: &rng)
            let w = Double(width), h = Double(height)
            let cases: [(Rect, Rect)] = [
                (Rect(x: 0, y: 0, width: w, height: h), Rect(x: 0.2, y: 0.1, width: w * 0.8, height: h * 0.7)),
                (Rect(x: w / 2, y: 0, width: w / 2, height: h), Rect(x: 1, y: 1, width: 1.3, height: h / 2)),
                (Rect(x: w - 1.5, y: 0.5, width: 1.5, height: h - 0.5), Rect(x: 0, y: 0, width: 5, height: 6)),
                (Rect(x: 0.4, y: 0, width: w - 0.4, height: h), Rect(x: 2.5, y: 0, width: w * 0.9 - 0.3, height: h * 0.6)),
            ]
            for (sourceRect, destination) in cases {
                for alpha in [1, 0.6] {
                    let background = TestImages.random(width: width + 6, height: height + 6, using: &rng)
                    let (_, worst) = TestImages.scaledAgainstReference(source, sourceRect: sourceRect, into: destination,
                                                                       over: background, alpha: alpha)
                    #expect(worst <= 1, "\(width)x\(height): \(sourceRect) -> \(destination) alpha \(alpha)")
                }
            }
        }
    }
}
