/// Four XRGB8888 pixels in one 128-bit vector, seen as eight 16-bit lanes: each lane holds two
/// channels (blue | green << 8, red | x << 8). Splitting a lane into its low and high byte gives
/// two vectors of 8-bit values with room to multiply, so every operation here works on all four
/// pixels' channels at once with 16-bit arithmetic (SSE2 / NEON), no per-channel code.
typealias Lanes = SIMD8<UInt16>

enum PixelVector {
    // Computed, not stored: a stored static is initialised lazily and checked on every use.
    @inline(__always) static var lowBytes: Lanes { Lanes(repeating: 0x00FF) }
    @inline(__always) static var highBytes: Lanes { Lanes(repeating: 0xFF00) }
    @inline(__always) static var colorMask: SIMD4<UInt32> { SIMD4(repeating: 0x00FF_FFFF) }

    @inline(__always)
    static func load(_ pixels: UnsafePointer<UInt32>) -> Lanes {
        UnsafeRawPointer(pixels).loadUnaligned(as: Lanes.self)
    }

    @inline(__always)
    static func store(_ lanes: Lanes, to pixels: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(pixels).storeBytes(of: lanes, as: Lanes.self)
    }

    /// The high 16 bits of each 16 x 16-bit product (one `pmulhuw` / `umull`+shift): x * w / 65536
    /// rounded down, the fixed-point multiply of the bilinear passes.
    ///
    /// This relies on the optimiser inlining the standard library's generic SIMD conversions,
    /// which it does while the calling function stays moderate in size; when it stops (seen when
    /// the blends used this too), each vector becomes a call and the blits get several times
    /// slower. `vitrine-bench` shows it at once; a rewrite with bitcasts avoided the calls but
    /// compiled to slower code.
    @inline(__always)
    static func multiplyHigh(_ a: Lanes, _ b: Lanes) -> Lanes {
        Lanes(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8<UInt32>(truncatingIfNeeded: b)) &>> 16)
    }

    /// x / 255 for x <= 65279 in every lane (a blend's sums stay below 65153), exactly:
    /// (x + 1 + x >> 8) >> 8, which does not overflow 16 bits there.
    @inline(__always)
    static func divide255(_ x: Lanes) -> Lanes {
        (x &+ 1 &+ (x &>> 8)) &>> 8
    }

    /// `PixelMath.blend` on four pixels: (source * a + destination * (255 - a) + 127) / 255 per
    /// channel, the same integers.
    @inline(__always)
    static func blend(_ source: Lanes, over destination: Lanes, alpha: Lanes, inverse: Lanes) -> Lanes {
        let bias = Lanes(repeating: 127)
        let low = divide255((source & lowBytes) &* alpha &+ (destination & lowBytes) &* inverse &+ bias)
        let high = divide255((source &>> 8) &* alpha &+ (destination &>> 8) &* inverse &+ bias)
        return low | (high &<< 8)
    }

    /// The same with a constant source already weighted: `weighted` = colour * a + 127 in the
    /// low-byte and high-byte lane layouts.
    @inline(__always)
    static func blend(weightedLow: Lanes, weightedHigh: Lanes, over destination: Lanes, inverse: Lanes) -> Lanes {
        let low = divide255(weightedLow &+ (destination & lowBytes) &* inverse)
        let high = divide255(weightedHigh &+ (destination &>> 8) &* inverse)
        return low | (high &<< 8)
    }

    /// A colour's channels spread over the lanes like four copies of the pixel, split into the
    /// low bytes (blue, red) and high bytes (green, x).
    static func split(_ color: UInt32) -> (low: Lanes, high: Lanes) {
        let lanes = unsafeBitCast(SIMD4<UInt32>(repeating: color), to: Lanes.self)
        return (lanes & lowBytes, lanes &>> 8)
    }
}
