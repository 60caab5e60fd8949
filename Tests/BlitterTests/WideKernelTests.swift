import Testing
@testable import Blitter
import Geometry
import TestSupport

/// The AVX2 kernels against the 128-bit paths they stand in for: the same pixels, bit for bit, so
/// a kiosk's picture does not depend on its CPU. Runs where the CPU has AVX2 (this machine does).
@Suite(.enabled(if: Bitmap.wideKernels, "this CPU has no AVX2"))
struct WideKernelTests {
    /// Draws `source` into a fresh target twice, with and without the wide kernels.
    static func both(_ source: Bitmap, sourceRect: Rect, into destination: Rect, target size: (Int, Int),
                     alpha: Double, using rng: inout SplitMix64) -> (wide: Bitmap, portable: Bitmap) {
        let under = TestImages.random(width: size.0, height: size.1, using: &rng)
        var wide = under, portable = under
        wide.drawScaled(source, sourceRect: sourceRect, into: destination, clip: wide.bounds, quality: .bilinear,
                        alpha: alpha, wide: true)
        portable.drawScaled(source, sourceRect: sourceRect, into: destination, clip: portable.bounds, quality: .bilinear,
                            alpha: alpha, wide: false)
        return (wide, portable)
    }

    /// How many pixels differ (a count, not two pictures' worth of numbers, when they do).
    static func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.pixels, b.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// `count` draws of the whole `source` at a random scale in `scales`, placed at a random
    /// fractional origin in `origins` (partly off the target), at one of `alphas`: wide and
    /// portable give the same pixels.
    static func expectSameAtRandomScales(_ source: Bitmap, scales: ClosedRange<Double>, origins: ClosedRange<Double>,
                                         alphas: [Double], target: (Int, Int), count: Int, using rng: inout SplitMix64) {
        let whole = Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        for _ in 0..<count {
            let scale = Double.random(in: scales, using: &rng)
            let destination = Rect(x: Double.random(in: origins, using: &rng), y: Double.random(in: origins, using: &rng),
                                   width: whole.width * scale, height: whole.height * scale)
            let alpha = alphas[Int.random(in: 0..<alphas.count, using: &rng)]
            let (wide, portable) = both(source, sourceRect: whole, into: destination, target: target, alpha: alpha, using: &rng)
            #expect(differing(wide, portable) == 0, "scale \(scale), alpha \(alpha), at \(destination)")
        }
    }

    @Test func shrinksAsThePortablePathDoes() {
        var rng = SplitMix64(seed: 25)
        let source = TestImages.random(width: 301, height: 203, using: &rng)
        // A dismiss drag's shrink (1 to 0.68) and further, to half; fractional placement, partly
        // off the target, translucent or not.
        Self.expectSameAtRandomScales(source, scales: 0.5...1, origins: -20...30, alphas: [1, 0.6, 0.25],
                                      target: (240, 180), count: 60, using: &rng)
    }

    @Test func enlargesAsThePortablePathDoes() {
        var rng = SplitMix64(seed: 28)
        let source = TestImages.random(width: 97, height: 61, using: &rng)
        // An opening's last frames and a zoom: at the image's size up to 3x, widths that leave 0
        // to 7 pixels after the last group of eight.
        Self.expectSameAtRandomScales(source, scales: 1...3, origins: -40...10, alphas: [1, 0.6],
                                      target: (203, 151), count: 40, using: &rng)
    }

    @Test func cropsAndTheRowsLastPixelsAsThePortablePathDoes() {
        var rng = SplitMix64(seed: 26)
        let source = TestImages.random(width: 64, height: 48, using: &rng)
        // Crops touching the right edge (the pairs' windows start eight pixels before it) and
        // widths that leave one to three pixels after the last block of four.
        for width in [37.0, 38.0, 39.0, 40.0, 41.0, 63.3] {
            let sourceRect = Rect(x: 64 - width * 1.3, y: 3.7, width: width * 1.3, height: 40)
            let (wide, portable) = Self.both(source, sourceRect: sourceRect, into: Rect(x: 1.5, y: 0.25, width: width, height: 31),
                                             target: (50, 40), alpha: 1, using: &rng)
            #expect(Self.differing(wide, portable) == 0, "width \(width)")
        }
    }

    @Test func pairsThatDoNotFitEightPixelsFallBack() {
        // Below half, four destination pixels span more than eight source pixels: no blocks, and
        // the picture is still the portable one.
        var rng = SplitMix64(seed: 27)
        let source = TestImages.random(width: 120, height: 30, using: &rng)
        let offsets = UnsafeMutablePointer<Int32>.allocate(capacity: 4), weights = UnsafeMutablePointer<Lanes>.allocate(capacity: 4)
        defer { offsets.deallocate(); weights.deallocate() }
        weights.initialize(repeating: Lanes(repeating: 1), count: 4)
        for (k, column) in [0, 3, 6, 9].enumerated() { offsets[k] = Int32(column * 4) }
        #expect(PairBlocks(offsets: offsets, weights: weights, count: 4, sourceWidth: 120) == nil)
        for (k, column) in [0, 2, 4, 6].enumerated() { offsets[k] = Int32(column * 4) }
        #expect(PairBlocks(offsets: offsets, weights: weights, count: 4, sourceWidth: 120)?.count == 1)
        #expect(PairBlocks(offsets: offsets, weights: weights, count: 4, sourceWidth: 7) == nil)
        let (wide, portable) = Self.both(source, sourceRect: Rect(x: 0, y: 0, width: 120, height: 30),
                                         into: Rect(x: 0, y: 0, width: 40, height: 15), target: (48, 20), alpha: 1, using: &rng)
        #expect(Self.differing(wide, portable) == 0)
    }

    @Test func dimsOverALayerAsThePortablePathDoes() {
        // The dimmed grid: a colour over a layer at every weight, in rects whose widths leave 0 to
        // 15 pixels after the kernel's groups of 16, at odd offsets, the last row included.
        var rng = SplitMix64(seed: 29)
        let layer = TestImages.random(width: 203, height: 37, using: &rng)
        let under = TestImages.random(width: 203, height: 37, using: &rng)
        for weight in 1..<PixelMath.opaque {
            let alpha = Double(weight) / Double(PixelMath.opaque)
            let color = UInt32.random(in: 0...0xFFFFFF, using: &rng)
            let rect = PixelRect(x: Int.random(in: 0..<20, using: &rng), y: Int.random(in: 0..<5, using: &rng),
                                 width: Int.random(in: 1...183, using: &rng), height: Int.random(in: 1...32, using: &rng))
            var wide = under, portable = under
            wide.blend(rect, color: color, alpha: alpha, over: layer, wide: true)
            portable.blend(rect, color: color, alpha: alpha, over: layer, wide: false)
            #expect(Self.differing(wide, portable) == 0, "weight \(weight), colour \(color), \(rect)")
        }
    }
}
