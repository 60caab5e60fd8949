import Geometry

extension Bitmap {
    /// Draws `sourceRect` of `source` (source pixels, fractional allowed) stretched onto
    /// `destination` (fractional), writing only the pixels whose centres fall inside
    /// destination ∩ `clip` ∩ this bitmap, laid over what is there with `alpha` like
    /// `blend(from:to:alpha:)`. Pixel centres map to pixel centres, so an edge-to-edge scale keeps
    /// the corner pixels and a constant-colour source stays exactly that colour.
    ///
    /// Bilinear sampling only averages neighbours, so it aliases when shrinking by more than 2x:
    /// draw from a `MipChain` for that.
    public mutating func drawScaled(_ source: Bitmap, sourceRect: Rect, into destination: Rect, clip: PixelRect,
                                    quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        let a = PixelMath.alphaByte(alpha)
        guard a > 0, !source.isEmpty,
              let mapping = ScaleMapping(sourceSize: (source.width, source.height), sourceRect: sourceRect,
                                         destination: destination, clip: clip.intersection(bounds))
        else { return }
        switch quality {
        case .bilinear: drawBilinear(source, mapping: mapping, alpha: a)
        case .nearest: drawNearest(source, mapping: mapping, alpha: a)
        }
    }

    /// Fractional weights in 1/4096ths: the four products sum to exactly 2^24, so a constant colour
    /// comes out unchanged, and the error against exact weights stays well under one level.
    private static let weightBits = 12
    private static let weightOne = 1 << weightBits

    private mutating func drawBilinear(_ source: Bitmap, mapping: ScaleMapping, alpha: Int) {
        let columnCount = mapping.columns.count, stride = self.stride, sourceStride = source.stride
        let opaque = alpha == 255, weight = UInt64(alpha)
        // Per column: first source x, second source x, weight of the second. Worked out once per
        // call, so the pixel loop does only integer work.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: columnCount * 3) { table in
            guard let firsts = table.baseAddress else { return }
            let seconds = firsts + columnCount, weights = seconds + columnCount
            for (i, x) in mapping.columns.enumerated() {
                let sample = ScaleMapping.bilinear(mapping.sourceX(x), in: mapping.sourceColumns)
                firsts[i] = sample.first
                seconds[i] = sample.second
                weights[i] = Int((sample.weight * Double(Self.weightOne)).rounded())
            }
            pixels.withUnsafeMutableBufferPointer { buffer in
                source.pixels.withUnsafeBufferPointer { sourceBuffer in
                    guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                    for y in mapping.rows {
                        let sample = ScaleMapping.bilinear(mapping.sourceY(y), in: mapping.sourceRows)
                        let wy1 = UInt64((sample.weight * Double(Self.weightOne)).rounded())
                        let wy0 = UInt64(Self.weightOne) - wy1
                        let top = sourceBase + sample.first * sourceStride
                        let bottom = sourceBase + sample.second * sourceStride
                        let row = base + y * stride + mapping.columns.lowerBound
                        for i in 0..<columnCount {
                            let x0 = firsts[i], x1 = seconds[i]
                            let wx1 = UInt64(truncatingIfNeeded: weights[i]), wx0 = UInt64(Self.weightOne) &- wx1
                            let pixel = Self.interpolate(top[x0], top[x1], bottom[x0], bottom[x1],
                                                         w00: wx0 &* wy0, w01: wx1 &* wy0, w10: wx0 &* wy1, w11: wx1 &* wy1)
                            row[i] = opaque ? pixel : PixelMath.blend(pixel, over: row[i], alpha: weight)
                        }
                    }
                }
            }
        }
    }

    /// Weighted sum of four pixels whose weights add up to 2^24. Red and blue ride in two 32-bit
    /// lanes of one UInt64 and green in another, so each channel is one multiply per pixel.
    @inline(__always)
    private static func interpolate(_ p00: UInt32, _ p01: UInt32, _ p10: UInt32, _ p11: UInt32,
                                    w00: UInt64, w01: UInt64, w10: UInt64, w11: UInt64) -> UInt32 {
        @inline(__always) func redBlue(_ p: UInt32) -> UInt64 { UInt64(p & 0xFF) | UInt64(p & 0xFF_0000) << 16 }
        @inline(__always) func green(_ p: UInt32) -> UInt64 { UInt64(p & 0xFF00) }
        let rb = redBlue(p00) &* w00 &+ redBlue(p01) &* w01 &+ redBlue(p10) &* w10 &+ redBlue(p11) &* w11
            &+ 0x0080_0000_0080_0000
        let g = green(p00) &* w00 &+ green(p01) &* w01 &+ green(p10) &* w10 &+ green(p11) &* w11 &+ 0x8000_0000
        return UInt32(truncatingIfNeeded: (rb >> 24) & 0xFF | (rb >> 40) & 0xFF_0000 | (g >> 24) & 0xFF00)
    }

    private mutating func drawNearest(_ source: Bitmap, mapping: ScaleMapping, alpha: Int) {
        let columnCount = mapping.columns.count, stride = self.stride, sourceStride = source.stride
        let opaque = alpha == 255, weight = UInt64(alpha)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: columnCount) { table in
            guard let columns = table.baseAddress else { return }
            for (i, x) in mapping.columns.enumerated() {
                columns[i] = ScaleMapping.nearest(mapping.sourceX(x), in: mapping.sourceColumns)
            }
            pixels.withUnsafeMutableBufferPointer { buffer in
                source.pixels.withUnsafeBufferPointer { sourceBuffer in
                    guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                    for y in mapping.rows {
                        let from = sourceBase + ScaleMapping.nearest(mapping.sourceY(y), in: mapping.sourceRows) * sourceStride
                        let row = base + y * stride + mapping.columns.lowerBound
                        for i in 0..<columnCount {
                            let pixel = from[columns[i]]
                            row[i] = opaque ? pixel : PixelMath.blend(pixel, over: row[i], alpha: weight)
                        }
                    }
                }
            }
        }
    }
}
