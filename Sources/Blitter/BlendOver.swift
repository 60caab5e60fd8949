import CBlitterKernels
import Geometry

extension Bitmap {
    /// Writes `rect` of `source` (same coordinates, clipped to both bitmaps) with `color` laid over
    /// it at `alpha`: exactly `copy` then `blend(_:color:alpha:)`, in one pass that reads the
    /// source once and writes here once (the dimmed grid under a transition, from a cached layer).
    public mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double, over source: Bitmap) {
        blend(rect, color: color, alpha: alpha, over: source, wide: Self.wideKernels)
    }

    /// The same with the 256-bit kernel or without (the tests compare the two).
    mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double, over source: Bitmap, wide: Bool) {
        let a = PixelMath.alphaWeight(alpha)
        if a == PixelMath.opaque { return fill(rect.intersection(source.bounds), color: color) }
        let area = rect.intersection(bounds).intersection(source.bounds)
        guard !area.isEmpty else { return }
        if a == 0 { return copy(from: source, sourceRect: area, to: (area.minX, area.minY)) }
        let blend = ColorBlend(color: color, weight: a, wide: wide)
        let stride = self.stride, sourceStride = source.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                for y in area.minY..<area.maxY {
                    let next = y + 1 < area.maxY ? UnsafePointer(sourceBase + (y + 1) * sourceStride + area.minX) : nil
                    blend.row(from: sourceBase + y * sourceStride + area.minX, to: base + y * stride + area.minX,
                              count: area.width, prefetching: next,
                              nextTarget: y + 1 < area.maxY ? base + (y + 1) * stride + area.minX : nil)
                }
            }
        }
    }

    /// `blend(_:color:alpha:over:)` from a packed picture: the same pixels as from the `Bitmap` it
    /// was packed from, whose X bytes are 0 (the picture's), with a quarter fewer bytes read.
    public mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double, over source: PackedBitmap) {
        blend(rect, color: color, alpha: alpha, over: source, wide: Self.wideKernels)
    }

    /// The same with the 256-bit kernel or without (the tests compare the two).
    mutating func blend(_ rect: PixelRect, color: UInt32, alpha: Double, over source: PackedBitmap, wide: Bool) {
        let a = PixelMath.alphaWeight(alpha)
        if a == PixelMath.opaque { return fill(rect.intersection(source.bounds), color: color) }
        let area = rect.intersection(bounds).intersection(source.bounds)
        guard !area.isEmpty else { return }
        let blend = a == 0 ? nil : ColorBlend(color: color, weight: a, wide: wide)
        let stride = self.stride, sourceStride = source.width * 3
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.bytes.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                for y in area.minY..<area.maxY {
                    let from = sourceBase + y * sourceStride + area.minX * 3, to = base + y * stride + area.minX
                    let last = y + 1 == area.maxY
                    let next = last ? nil : from + sourceStride, nextTarget = last ? nil : to + stride
                    if let blend {
                        blend.row(packed: from, to: to, count: area.width, prefetching: next, nextTarget: nextTarget)
                    } else {
                        vitrine_unpack_pixels(from, to, area.width, next, nextTarget)
                    }
                }
            }
        }
    }
}
