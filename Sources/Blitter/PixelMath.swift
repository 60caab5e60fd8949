/// Integer pixel arithmetic shared by the blitter's loops. Internal: callers see `Double` alpha.
enum PixelMath {
    /// The blend weight for an alpha in 0...1: round(alpha * 255). NaN counts as 0.
    @inline(__always)
    static func alphaByte(_ alpha: Double) -> Int {
        guard alpha > 0 else { return 0 }
        guard alpha < 1 else { return 255 }
        return Int((alpha * 255).rounded())
    }

    /// The three channels spread into 16-bit lanes of a UInt64 (blue at bit 0, green at 16, red
    /// at 32), so one multiply weights all of them without carries between lanes.
    @inline(__always)
    static func lanes(_ p: UInt32) -> UInt64 {
        let v = UInt64(p)
        return (v & 0xFF) | (v & 0xFF00) << 8 | (v & 0xFF_0000) << 16
    }

    /// Per channel: (source * a + destination * (255 - a) + 127) / 255, exact integer division.
    ///
    /// Each lane holds at most 255 * 255 + 127 = 65152, so nothing carries into the next lane, and
    /// for x <= 65534 `(x + 1 + x >> 8) >> 8` is exactly x / 255.
    @inline(__always)
    static func blend(_ source: UInt32, over destination: UInt32, alpha a: UInt64) -> UInt32 {
        let x = lanes(source) &* a &+ lanes(destination) &* (255 &- a) &+ 0x007F_007F_007F
        let q = (x &+ ((x >> 8) & 0x00FF_00FF_00FF) &+ 0x0001_0001_0001) >> 8
        return UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
    }

    /// The same blend with a precomputed `source * a + 127` in lanes (constant-colour fills).
    @inline(__always)
    static func blend(weightedSource: UInt64, over destination: UInt32, inverseAlpha: UInt64) -> UInt32 {
        let x = weightedSource &+ lanes(destination) &* inverseAlpha
        let q = (x &+ ((x >> 8) & 0x00FF_00FF_00FF) &+ 0x0001_0001_0001) >> 8
        return UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
    }

    /// The plain per-channel form of `blend`, the definition the lane version is tested against.
    static func referenceBlend(_ source: UInt32, over destination: UInt32, alpha a: Int) -> UInt32 {
        var result: UInt32 = 0
        for shift: UInt32 in [16, 8, 0] {
            let s = Int(source >> shift & 0xFF), d = Int(destination >> shift & 0xFF)
            result |= UInt32((s * a + d * (255 - a) + 127) / 255) << shift
        }
        return result
    }
}
