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

    /// `count` pixels set to `color` by the C library's and the CPU's fastest means (see
    /// `vitrine_fill32`), which a Swift loop held to the SSE2 baseline cannot reach.
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
        let blend = ColorBlend(color: color, weight: a)
        let stride = self.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in area.minY..<area.maxY {
                let row = base + y * stride + area.minX
                blend.row(from: row, to: row, count: area.width)
            }
        }
    }
}
