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

    /// Four finished pixels stored with their X byte cleared, as every drawing operation leaves it.
    @inline(__always)
    static func storePixels(_ lanes: Lanes, to pixels: UnsafeMutablePointer<UInt32>) {
        store(unsafeBitCast(unsafeBitCast(lanes, to: SIMD4<UInt32>.self) & colorMask, to: Lanes.self), to: pixels)
    }

    /// The high 16 bits of each 16 x 16-bit product (one `pmulhuw` / `umull`+shift): x * w / 65536
    /// rounded down, the fixed-point multiply of the bilinear passes.
    ///
    /// This relies on the optimiser inlining the standard library's generic SIMD conversions,
    /// which it does while the calling function stays moderate in size and nothing else in the
    /// module needs the same conversions; when it stops, each vector becomes a call and the blits
    /// get several times slower. `vitrine-bench` shows it at once. A rewrite with shuffles
    /// compiled to 32-bit multiplies in some callers; code elsewhere in the blitter keeps to
    /// `widen`, `narrowHigh` and 16-bit multiplies (`&*`), which compile the same everywhere.
    @inline(__always)
    static func multiplyHigh(_ a: Lanes, _ b: Lanes) -> Lanes {
        Lanes(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8<UInt32>(truncatingIfNeeded: b)) &>> 16)
    }

    /// Eight bytes zero-extended to 16-bit lanes (one `punpcklbw` with zero).
    @inline(__always)
    static func widen(_ b: SIMD8<UInt8>) -> Lanes {
        let zero: UInt8 = 0
        return unsafeBitCast(SIMD16<UInt8>(b[0], zero, b[1], zero, b[2], zero, b[3], zero,
                                           b[4], zero, b[5], zero, b[6], zero, b[7], zero), to: Lanes.self)
    }

    /// The first and the last eight of sixteen bytes (`SIMD16.lowHalf` and `highHalf` are not
    /// always inlined).
    @inline(__always)
    static func low(_ v: SIMD16<UInt8>) -> SIMD8<UInt8> { SIMD8(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]) }
    @inline(__always)
    static func high(_ v: SIMD16<UInt8>) -> SIMD8<UInt8> { SIMD8(v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15]) }

    /// The high bytes of the lanes of `low` then `high`: x >> 8 of every lane, packed.
    @inline(__always)
    static func narrowHigh(_ low: Lanes, _ high: Lanes) -> SIMD16<UInt8> {
        let l = unsafeBitCast(low, to: SIMD16<UInt8>.self), h = unsafeBitCast(high, to: SIMD16<UInt8>.self)
        return SIMD16<UInt8>(l[1], l[3], l[5], l[7], l[9], l[11], l[13], l[15],
                             h[1], h[3], h[5], h[7], h[9], h[11], h[13], h[15])
    }

    /// `PixelMath.blend` on four pixels: (source * a + destination * (256 - a) + 128) / 256 per
    /// channel, the same integers. The low bytes' sums shift down into place; the high bytes'
    /// sums already have their result in the high byte.
    @inline(__always)
    static func blend(_ source: Lanes, over destination: Lanes, alpha: Lanes, inverse: Lanes) -> Lanes {
        let bias = Lanes(repeating: 128)
        let low = ((source & lowBytes) &* alpha &+ (destination & lowBytes) &* inverse &+ bias) &>> 8
        let high = ((source &>> 8) &* alpha &+ (destination &>> 8) &* inverse &+ bias) & highBytes
        return low | high
    }

    /// The same with a constant source already weighted: `weighted` = colour * a + 128 in the
    /// low-byte and high-byte lane layouts (`weighted(_:alpha:)`).
    @inline(__always)
    static func blend(weightedLow: Lanes, weightedHigh: Lanes, over destination: Lanes, inverse: Lanes) -> Lanes {
        let low = (weightedLow &+ (destination & lowBytes) &* inverse) &>> 8
        let high = (weightedHigh &+ (destination &>> 8) &* inverse) & highBytes
        return low | high
    }

    /// A constant colour times `alpha` with the rounding bias, for `blend(weightedLow:...)`.
    static func weighted(_ color: UInt32, alpha: UInt16) -> (low: Lanes, high: Lanes) {
        let (low, high) = split(color)
        let bias = Lanes(repeating: 128), a = Lanes(repeating: alpha)
        return (low &* a &+ bias, high &* a &+ bias)
    }

    /// A colour's channels spread over the lanes like four copies of the pixel, split into the
    /// low bytes (blue, red) and high bytes (green, x).
    static func split(_ color: UInt32) -> (low: Lanes, high: Lanes) {
        let lanes = unsafeBitCast(SIMD4<UInt32>(repeating: color), to: Lanes.self)
        return (lanes & lowBytes, lanes &>> 8)
    }
}
