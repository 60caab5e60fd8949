/// The dissolve's row kernels: pixels of one or two sources, each weighed in 256ths, summed over
/// black. Per channel (a * wa + b * wb + 128) / 256 with wa + wb <= 256: the rounding of
/// `PixelMath.blend`, which is the case wa + wb = 256. Four pixels at a time in 16-bit lanes
/// (`PixelVector`), 255 * 256 + 128 fits.
enum DissolveRow {
    /// `count` pixels: a * wa + b * wb per channel, into `out` (which may be neither source).
    @inline(__always)
    static func mix(_ a: UnsafePointer<UInt32>, weight wa: Int, _ b: UnsafePointer<UInt32>, weight wb: Int,
                    into out: UnsafeMutablePointer<UInt32>, count: Int) {
        let la = Lanes(repeating: UInt16(truncatingIfNeeded: wa)), lb = Lanes(repeating: UInt16(truncatingIfNeeded: wb))
        @inline(__always) func four(_ x: Int) {
            // `blend` with the weights given apart: b at wb over a at wa.
            PixelVector.storePixels(PixelVector.blend(PixelVector.load(b + x), over: PixelVector.load(a + x), alpha: lb, inverse: la),
                                    to: out + x)
        }
        forEachPixel(count, four: four) { out[$0] = pixel(a[$0], weight: UInt64(wa), b[$0], weight: UInt64(wb)) }
    }

    /// `count` pixels of `a` at weight `w` over black (at `PixelMath.opaque` a copy).
    @inline(__always)
    static func weigh(_ a: UnsafePointer<UInt32>, weight w: Int, into out: UnsafeMutablePointer<UInt32>, count: Int) {
        let lw = Lanes(repeating: UInt16(truncatingIfNeeded: w)), none = Lanes()
        let opaque = w == PixelMath.opaque
        @inline(__always) func four(_ x: Int) {
            let pixels = PixelVector.load(a + x)
            PixelVector.storePixels(opaque ? pixels : PixelVector.blend(pixels, over: none, alpha: lw, inverse: none), to: out + x)
        }
        forEachPixel(count, four: four) { out[$0] = pixel(a[$0], weight: UInt64(w), 0, weight: 0) }
    }

    /// Pixels 0..<count: four at a time (eight per turn, for the pipeline), the rest one by one.
    @inline(__always)
    private static func forEachPixel(_ count: Int, four: (Int) -> Void, one: (Int) -> Void) {
        var x = 0
        while x &+ 8 <= count {
            four(x)
            four(x &+ 4)
            x &+= 8
        }
        while x &+ 4 <= count {
            four(x)
            x &+= 4
        }
        while x < count {
            one(x)
            x &+= 1
        }
    }

    /// One pixel of `mix`, in `PixelMath`'s channel lanes.
    @inline(__always)
    static func pixel(_ a: UInt32, weight wa: UInt64, _ b: UInt32, weight wb: UInt64) -> UInt32 {
        let q = (PixelMath.lanes(a) &* wa &+ PixelMath.lanes(b) &* wb &+ 0x0080_0080_0080) >> 8
        return UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
    }

    /// Any number of sources at their weights (adding up to at most 256), one pixel at a time: the
    /// rare pixel that three pages or more cover.
    static func sum(_ sources: [UnsafePointer<UInt32>], weights: [Int], into out: UnsafeMutablePointer<UInt32>, count: Int) {
        for x in 0..<count {
            var total: UInt64 = 0x0080_0080_0080
            for (source, weight) in zip(sources, weights) { total &+= PixelMath.lanes(source[x]) &* UInt64(weight) }
            let q = total >> 8
            out[x] = UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
        }
    }
}
