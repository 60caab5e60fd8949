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
        let stride = self.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in area.minY..<area.maxY {
                let row = base + y * stride
                for x in area.minX..<area.maxX {
                    row[x] = PixelMath.blend(weightedSource: weighted, over: row[x], inverseAlpha: inverse)
                }
            }
        }
    }
}
