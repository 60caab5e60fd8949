import Geometry

extension Bitmap {
    /// Sets every pixel of `rect` (clipped to the bitmap) to `color`.
    public mutating func fill(_ rect: PixelRect, color: UInt32) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let stride = self.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in area.minY..<area.maxY {
                (base + y * stride + area.minX).update(repeating: color, count: area.width)
            }
        }
    }

    /// Lays `color` over `rect` (clipped to the bitmap) with a constant `alpha` in 0...1: the
    /// dimmed background over the grid. With a = round(alpha * 255), each channel becomes
    /// (color * a + old * (255 - a) + 127) / 255 in integers, so alpha 0 leaves the pixels alone,
    /// alpha 1 gives `color`, and 50 % black over white gives 0x7F.
    public mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double) {
        let a = PixelMath.alphaByte(alpha)
        if a == 0 { return }
        if a == 255 { return fill(rect, color: color) }
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let weighted = PixelMath.lanes(color) &* UInt64(a) &+ 0x007F_007F_007F
        let inverse = UInt64(255 - a)
        let (colorLow, colorHigh) = PixelVector.split(color & 0x00FF_FFFF)
        let bias = Lanes(repeating: 127), alphaLanes = Lanes(repeating: UInt16(a))
        let weightedLow = colorLow &* alphaLanes &+ bias, weightedHigh = colorHigh &* alphaLanes &+ bias
        let inverseLanes = Lanes(repeating: UInt16(255 - a))
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
