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

    /// Separable: each destination row first blends its two source rows into a row of channel
    /// sums (reused by the next destination row when it reads the same rows, as when enlarging),
    /// then each pixel blends two of those sums. Same integer results as weighting four pixels.
    private mutating func drawBilinear(_ source: Bitmap, mapping: ScaleMapping, alpha: Int) {
        let columnCount = mapping.columns.count, stride = self.stride, sourceStride = source.stride
        let opaque = alpha == 255, weight = UInt64(alpha), one = UInt64(Self.weightOne)
        // Per column: the first source x (relative to the first one read; the second is the next
        // one) and the weight of the second, packed as x << 16 | weight. Worked out once per call,
        // so the pixel loop does only integer work.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: columnCount) { table in
            guard let columns = table.baseAddress else { return }
            let firstColumn = ScaleMapping.bilinear(mapping.sourceX(mapping.columns.lowerBound), in: mapping.sourceColumns).first
            var lastColumn = firstColumn
            for (i, x) in mapping.columns.enumerated() {
                let sample = ScaleMapping.bilinear(mapping.sourceX(x), in: mapping.sourceColumns)
                // A sample clamped to the last column has weight 0 for the column after it.
                columns[i] = (sample.first - firstColumn) << 16 | Int((sample.weight * Double(Self.weightOne)).rounded())
                lastColumn = sample.second
            }
            let span = lastColumn - firstColumn + 1
            // Vertical sums per source column: red and blue in 32-bit lanes, green alone; each at
            // most 255 * 4096, so the horizontal weights fit without carries. One spare column
            // keeps `x + 1` readable where the weight is 0.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (span + 1) * 2) { buffer in
                guard let redBlueSums = buffer.baseAddress else { return }
                let greenSums = redBlueSums + span + 1
                redBlueSums[span] = 0
                greenSums[span] = 0
                pixels.withUnsafeMutableBufferPointer { buffer in
                    source.pixels.withUnsafeBufferPointer { sourceBuffer in
                        guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                        var summed: (first: Int, second: Int, weight: UInt64) = (-1, -1, 0)
                        for y in mapping.rows {
                            let sample = ScaleMapping.bilinear(mapping.sourceY(y), in: mapping.sourceRows)
                            let wy1 = UInt64((sample.weight * Double(Self.weightOne)).rounded()), wy0 = one - wy1
                            if summed != (sample.first, sample.second, wy1) {
                                summed = (sample.first, sample.second, wy1)
                                let top = sourceBase + sample.first * sourceStride + firstColumn
                                let bottom = sourceBase + sample.second * sourceStride + firstColumn
                                for i in 0..<span {
                                    let t = top[i], b = bottom[i]
                                    redBlueSums[i] = Self.redBlue(t) &* wy0 &+ Self.redBlue(b) &* wy1
                                    greenSums[i] = UInt64(t >> 8 & 0xFF) &* wy0 &+ UInt64(b >> 8 & 0xFF) &* wy1
                                }
                            }
                            let row = base + y * stride + mapping.columns.lowerBound
                            for i in 0..<columnCount {
                                let column = columns[i]
                                let redBlue = redBlueSums + (column >> 16), green = greenSums + (column >> 16)
                                let wx1 = UInt64(truncatingIfNeeded: column & 0xFFFF), wx0 = one &- wx1
                                // Weights total 2^24; add half of that to round.
                                let rb = redBlue[0] &* wx0 &+ redBlue[1] &* wx1 &+ 0x0080_0000_0080_0000
                                let g = green[0] &* wx0 &+ green[1] &* wx1 &+ 0x0080_0000
                                let pixel = UInt32(truncatingIfNeeded: (rb >> 24) & 0xFF | (rb >> 40) & 0xFF_0000 | (g >> 16) & 0xFF00)
                                row[i] = opaque ? pixel : PixelMath.blend(pixel, over: row[i], alpha: weight)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Blue in the low 32-bit lane, red in the high one.
    @inline(__always)
    private static func redBlue(_ p: UInt32) -> UInt64 { UInt64(p & 0xFF) | UInt64(p & 0xFF_0000) << 16 }

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
