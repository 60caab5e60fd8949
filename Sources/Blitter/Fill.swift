import Geometry
import CLinux

extension Bitmap {
    /// Sets every pixel of `rect` (clipped to the bitmap) to `color`.
    public mutating func fill(_ rect: PixelRect, color: UInt32) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let stride = self.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            if area.width == stride {
                // Whole rows: one block.
                Self.fill(base + area.minY * stride, count: area.width * area.height, color: color)
                return
            }
            for y in area.minY..<area.maxY {
                Self.fill(base + y * stride + area.minX, count: area.width, color: color)
            }
        }
    }

    /// `count` pixels set to `color`, by glibc's wmemset: the widest stores the CPU has (picked at
    /// run time, AVX2 where there is one), where a Swift loop is held to the SSE2 baseline.
    @inline(__always)
    private static func fill(_ start: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32) {
        vitrine_fill32(start, color, count)
    }

    /// Lays `color` over `rect` (clipped to the bitmap) with a constant `alpha` in 0...1: the
    /// dimmed background over the grid. With a = round(alpha * 256), each channel becomes
    /// (color * a + old * (256 - a) + 128) / 256 in integers, so alpha 0 leaves the pixels alone,
    /// alpha 1 gives `color`, and 50 % black over white gives 0x80.
    public mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double) {
        let a = PixelMath.alphaWeight(alpha)
        if a == 0 { return }
        if a == PixelMath.opaque { return fill(rect, color: color) }
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let weighted = PixelMath.lanes(color) &* UInt64(a) &+ 0x0080_0080_0080
        let inverse = UInt64(PixelMath.opaque - a)
        let (weightedLow, weightedHigh) = PixelVector.weighted(color & 0x00FF_FFFF, alpha: UInt16(a))
        let inverseLanes = Lanes(repeating: UInt16(PixelMath.opaque - a))
        let stride = self.stride, width = area.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in area.minY..<area.maxY {
                let row = base + y * stride + area.minX
                var x = 0
                // Four pixels at a time; the X byte comes out 0 like the scalar blend's.
                while x + 4 <= width {
                    let blended = PixelVector.blend(weightedLow: weightedLow, weightedHigh: weightedHigh,
                                                    over: PixelVector.load(row + x), inverse: inverseLanes)
                    let masked = unsafeBitCast(blended, to: SIMD4<UInt32>.self) & PixelVector.colorMask
                    PixelVector.store(unsafeBitCast(masked, to: Lanes.self), to: row + x)
                    x += 4
                }
                while x < width {
                    row[x] = PixelMath.blend(weightedSource: weighted, over: row[x], inverseAlpha: inverse)
                    x += 1
                }
            }
        }
    }
}
