/// Integer pixel arithmetic shared by the blitter's loops. Callers pass `Double` alpha; `alphaWeight`
/// is public so that the renderer can tell which alphas draw nothing or cover.
public enum PixelMath {
    /// Blends weigh in 256ths: the weight of the source is 0 (nothing drawn) to `opaque` (the
    /// source replaces the destination). 256ths rather than 255ths: the division is a shift, with
    /// no correction step, which the vector blends (memory-bound at 1080p) feel.
    public static let opaque = 256

    /// The blend weight for an alpha in 0...1: round(alpha * 256). NaN counts as 0.
    @inline(__always)
    public static func alphaWeight(_ alpha: Double) -> Int {
        guard alpha > 0 else { return 0 }
        guard alpha < 1 else { return opaque }
        return Int((alpha * 256).rounded())
    }

    /// The three channels spread into 16-bit lanes of a UInt64 (blue at bit 0, green at 16, red
    /// at 32), so one multiply weights all of them without carries between lanes.
    @inline(__always)
    static func lanes(_ p: UInt32) -> UInt64 {
        let v = UInt64(p)
        return (v & 0xFF) | (v & 0xFF00) << 8 | (v & 0xFF_0000) << 16
    }

    /// Per channel: (source * a + destination * (256 - a) + 128) / 256, rounded to nearest.
    ///
    /// Each lane holds at most 255 * 256 + 128 = 65408, so nothing carries into the next lane.
    @inline(__always)
    static func blend(_ source: UInt32, over destination: UInt32, alpha a: UInt64) -> UInt32 {
        let x = lanes(source) &* a &+ lanes(destination) &* (256 &- a) &+ 0x0080_0080_0080
        let q = x >> 8
        return UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
    }

    /// The same blend with a precomputed `source * a + 128` in lanes (constant-colour fills).
    @inline(__always)
    static func blend(weightedSource: UInt64, over destination: UInt32, inverseAlpha: UInt64) -> UInt32 {
        let q = (weightedSource &+ lanes(destination) &* inverseAlpha) >> 8
        return UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
    }

    /// The plain per-channel form of `blend`, the definition the lane version is tested against.
    static func referenceBlend(_ source: UInt32, over destination: UInt32, alpha a: Int) -> UInt32 {
        var result: UInt32 = 0
        for shift: UInt32 in [16, 8, 0] {
            let s = Int(source >> shift & 0xFF), d = Int(destination >> shift & 0xFF)
            result |= UInt32((s * a + d * (opaque - a) + 128) / 256) << shift
        }
        return result
    }
}
