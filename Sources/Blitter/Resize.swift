import Geometry

extension Bitmap {
    /// A copy resampled to exactly `width` x `height`: bilinear where the scale is 1/2 or more, a box
    /// (area-average) filter below that so large reductions do not alias. Used by the decoder to go
    /// from TurboJPEG's scaled output to the exact thumbnail or screen size.
    public func resized(width newWidth: Int, height newHeight: Int) -> Bitmap {
        var out = Bitmap(width: newWidth, height: newHeight)
        guard !isEmpty, !out.isEmpty else { return out }
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        if sx > 2 || sy > 2 {
            boxResample(into: &out, sx: sx, sy: sy)
        } else {
            bilinearResample(into: &out)
        }
        return out
    }

    private func boxResample(into out: inout Bitmap, sx: Double, sy: Double) {
        let src = pixels, srcStride = stride
        for oy in 0..<out.height {
            let y0 = Int(Double(oy) * sy), y1 = Swift.max(y0 + 1, Swift.min(height, Int(Double(oy + 1) * sy)))
            for ox in 0..<out.width {
                let x0 = Int(Double(ox) * sx), x1 = Swift.max(x0 + 1, Swift.min(width, Int(Double(ox + 1) * sx)))
                var r = 0, g = 0, b = 0
                for y in y0..<y1 {
                    let row = y * srcStride
                    for x in x0..<x1 {
                        let p = src[row + x]
                        r += Int(p >> 16 & 0xFF); g += Int(p >> 8 & 0xFF); b += Int(p & 0xFF)
                    }
                }
                let n = (y1 - y0) * (x1 - x0)
                out.pixels[oy * out.stride + ox] = UInt32((r + n / 2) / n) << 16 | UInt32((g + n / 2) / n) << 8 | UInt32((b + n / 2) / n)
            }
        }
    }

    /// Pixel centres map to pixel centres, so an edge-to-edge scale keeps the corner pixels: the
    /// same mapping as `drawScaled`, whose vector path does the work (within one level of the
    /// per-channel Double definition).
    private func bilinearResample(into out: inout Bitmap) {
        out.drawScaled(self, sourceRect: bounds.rect, into: out.bounds.rect, clip: out.bounds)
    }
}
