import Geometry

extension Bitmap {
    /// Writes `rect` of `source` (same coordinates, clipped to both bitmaps) with `color` laid over
    /// it at `alpha`: exactly `copy` then `blend(_:color:alpha:)`, in one pass that reads the
    /// source once and writes here once (the dimmed grid under a transition, from a cached layer).
    public mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double, over source: Bitmap) {
        let a = PixelMath.alphaWeight(alpha)
        if a == PixelMath.opaque { return fill(rect.intersection(source.bounds), color: color) }
        let area = rect.intersection(bounds).intersection(source.bounds)
        guard !area.isEmpty else { return }
        if a == 0 { return copy(from: source, sourceRect: area, to: (area.minX, area.minY)) }
        let weighted = PixelMath.lanes(color) &* UInt64(a) &+ 0x0080_0080_0080
        let inverse = UInt64(PixelMath.opaque - a)
        let (weightedLow, weightedHigh) = PixelVector.weighted(color & 0x00FF_FFFF, alpha: UInt16(a))
        let inverseLanes = Lanes(repeating: UInt16(PixelMath.opaque - a))
        let stride = self.stride, sourceStride = source.stride, width = area.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                for y in area.minY..<area.maxY {
                    let row = base + y * stride + area.minX, from = sourceBase + y * sourceStride + area.minX
                    var x = 0
                    while x + 4 <= width {
                        let blended = PixelVector.blend(weightedLow: weightedLow, weightedHigh: weightedHigh,
                                                        over: PixelVector.load(from + x), inverse: inverseLanes)
                        let masked = unsafeBitCast(blended, to: SIMD4<UInt32>.self) & PixelVector.colorMask
                        PixelVector.store(unsafeBitCast(masked, to: Lanes.self), to: row + x)
                        x += 4
                    }
                    while x < width {
                        row[x] = PixelMath.blend(weightedSource: weighted, over: from[x], inverseAlpha: inverse)
                        x += 1
                    }
                }
            }
        }
    }
}
