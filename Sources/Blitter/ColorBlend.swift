import CBlitterKernels
/// A constant colour laid over pixels at a blend weight in 256ths (`PixelMath.alphaWeight`), the
/// colour's share worked out once: the dimmed background over the grid, in place or from a layer.
struct ColorBlend {
    private let weighted: UInt64, inverse: UInt64
    private let weightedLow: Lanes, weightedHigh: Lanes, inverseLanes: Lanes
    /// Whether rows go through the AVX2 kernel (`vitrine_color_blend_avx2`), bit for bit this path.
    private let wide: Bool

    /// `weight` strictly between 0 and `PixelMath.opaque`.
    init(color: UInt32, weight: Int, wide: Bool = Bitmap.wideKernels) {
        self.wide = wide
        weighted = PixelMath.lanes(color) &* UInt64(weight) &+ 0x0080_0080_0080
        inverse = UInt64(PixelMath.opaque - weight)
        (weightedLow, weightedHigh) = PixelVector.weighted(color & 0x00FF_FFFF, alpha: UInt16(weight))
        inverseLanes = Lanes(repeating: UInt16(PixelMath.opaque - weight))
    }

    /// `count` pixels of `from` with the colour over them, into `to` (which may be `from`).
    @inline(__always)
    func row(from: UnsafePointer<UInt32>, to: UnsafeMutablePointer<UInt32>, count: Int,
             prefetching next: UnsafePointer<UInt32>? = nil, nextTarget: UnsafeMutablePointer<UInt32>? = nil) {
        /// Four pixels from `k` on.
        @inline(__always) func four(_ k: Int) {
            PixelVector.storePixels(PixelVector.blend(weightedLow: weightedLow, weightedHigh: weightedHigh,
                                                      over: PixelVector.load(from + k), inverse: inverseLanes), to: to + k)
        }
        var x = 0
        if wide {
            // One pixel's two 16-bit lanes of each half of the colour's share.
            let low = unsafeBitCast(weightedLow, to: SIMD4<UInt32>.self)[0], high = unsafeBitCast(weightedHigh, to: SIMD4<UInt32>.self)[0]
            x = vitrine_color_blend_avx2(from, to, count, low, high, UInt16(truncatingIfNeeded: inverse), next, nextTarget)
        } else if let next {
            // A cache line (16 pixels) of the next source row asked for per 16 blended here.
            while x &+ 16 <= count {
                vitrine_prefetch(next + x)
                if let nextTarget { vitrine_prefetch_for_writing(nextTarget + x) }
                four(x); four(x &+ 4); four(x &+ 8); four(x &+ 12)
                x &+= 16
            }
        }
        while x &+ 4 <= count {
            four(x)
            x &+= 4
        }
        while x < count {
            to[x] = PixelMath.blend(weightedSource: weighted, over: from[x], inverseAlpha: inverse)
            x &+= 1
        }
    }

    /// The same from packed pixels (`PackedBitmap`, 3 bytes each), which the wide kernel may read
    /// up to 8 bytes past the last; `next` is the row below, packed.
    func row(packed from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt32>, count: Int,
             prefetching next: UnsafePointer<UInt8>? = nil, nextTarget: UnsafeMutablePointer<UInt32>? = nil) {
        var x = 0
        if wide {
            let low = unsafeBitCast(weightedLow, to: SIMD4<UInt32>.self)[0], high = unsafeBitCast(weightedHigh, to: SIMD4<UInt32>.self)[0]
            x = vitrine_color_blend_packed_avx2(from, to, count, low, high, UInt16(truncatingIfNeeded: inverse), next, nextTarget)
        }
        // The rest widened into a buffer on the stack, 64 pixels at a time, and blended from there:
        // the same arithmetic as from a `Bitmap`.
        guard x < count else { return }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
            guard let pixels = buffer.baseAddress else { return }
            while x < count {
                let n = min(64, count - x)
                vitrine_unpack_pixels(from + 3 * x, pixels, n, next.map { $0 + 3 * x }, nextTarget.map { $0 + x })
                row(from: pixels, to: to + x, count: n)
                x += n
            }
        }
    }
}
