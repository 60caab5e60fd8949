import Geometry

extension Bitmap {
    /// The plain definition of `drawScaled`: per pixel, per channel, in Double. Slow; kept as the
    /// oracle the fast integer path is tested against (they may differ by one level per channel),
    /// public so that the benchmark can measure both against it.
    public mutating func drawScaledReference(_ source: Bitmap, sourceRect: Rect, into destination: Rect, clip: PixelRect,
                                      quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        let a = PixelMath.alphaWeight(alpha)
        guard a > 0, !source.isEmpty,
              let mapping = ScaleMapping(sourceSize: (source.width, source.height), sourceRect: sourceRect,
                                         destination: destination, clip: clip.intersection(bounds))
        else { return }
        for y in mapping.rows {
            for x in mapping.columns {
                let pixel: UInt32
                switch quality {
                case .nearest:
                    pixel = source[ScaleMapping.nearest(mapping.sourceX(x), in: mapping.sourceColumns),
                                   ScaleMapping.nearest(mapping.sourceY(y), in: mapping.sourceRows)]
                case .bilinear:
                    let sx = ScaleMapping.bilinear(mapping.sourceX(x), in: mapping.sourceColumns)
                    let sy = ScaleMapping.bilinear(mapping.sourceY(y), in: mapping.sourceRows)
                    let p00 = source[sx.first, sy.first], p01 = source[sx.second, sy.first]
                    let p10 = source[sx.first, sy.second], p11 = source[sx.second, sy.second]
                    var result: UInt32 = 0
                    for shift: UInt32 in [16, 8, 0] {
                        func channel(_ p: UInt32) -> Double { Double(p >> shift & 0xFF) }
                        let top = channel(p00) + (channel(p01) - channel(p00)) * sx.weight
                        let bottom = channel(p10) + (channel(p11) - channel(p10)) * sx.weight
                        result |= UInt32((top + (bottom - top) * sy.weight).rounded()) << shift
                    }
                    pixel = result
                }
                self[x, y] = a == PixelMath.opaque ? pixel : PixelMath.referenceBlend(pixel, over: self[x, y], alpha: a)
            }
        }
    }
}
