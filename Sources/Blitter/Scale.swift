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

    /// Separable, in 16-bit fixed point on four pixels at a time (`PixelVector`). Each
    /// destination row first blends its two source rows into a row of channel values in 1/256ths
    /// of a level (reused by the next destination row when it reads the same rows, as when
    /// enlarging), then each destination pixel blends two neighbours of that row. Weights are
    /// 16-bit fractions applied with a high-half multiply, so the result is within one level of
    /// the exact `drawScaledReference`, and a constant colour comes out unchanged.
    private mutating func drawBilinear(_ source: Bitmap, mapping: ScaleMapping, alpha: Int) {
        let columnCount = mapping.columns.count, stride = self.stride, sourceStride = source.stride
        let firstColumn = ScaleMapping.bilinear(mapping.sourceX(mapping.columns.lowerBound), in: mapping.sourceColumns).first
        var lastColumn = firstColumn
        // Per destination column: its first source column (relative to `firstColumn`) and the
        // weights of it and the next, as four lanes (w0, w0, w1, w1) matching a pair of
        // neighbours' (blue, red) or (green, x) values.
        let columnIndex = UnsafeMutablePointer<Int>.allocate(capacity: columnCount)
        let columnWeights = UnsafeMutablePointer<SIMD4<UInt16>>.allocate(capacity: columnCount)
        defer { columnIndex.deallocate(); columnWeights.deallocate() }
        for (i, x) in mapping.columns.enumerated() {
            let sample = ScaleMapping.bilinear(mapping.sourceX(x), in: mapping.sourceColumns)
            let (w0, w1) = Self.fixedWeights(sample.weight)
            columnIndex[i] = sample.first - firstColumn
            columnWeights[i] = SIMD4(w0, w0, w1, w1)
            lastColumn = sample.second
        }
        let span = lastColumn - firstColumn + 1
        // The blended source row, two lanes per source pixel: (blue, red) in `low`, (green, x) in
        // `high`, values * 256. One spare pixel keeps `x + 1` readable where its weight is 0.
        let laneCount = (span + 1) * 2 + 8
        let low = UnsafeMutablePointer<UInt16>.allocate(capacity: laneCount)
        let high = UnsafeMutablePointer<UInt16>.allocate(capacity: laneCount)
        low.initialize(repeating: 0, count: laneCount)
        high.initialize(repeating: 0, count: laneCount)
        defer { low.deallocate(); high.deallocate() }

        let blend = alpha < 255
        let alphaLanes = Lanes(repeating: UInt16(alpha)), inverseLanes = Lanes(repeating: UInt16(255 - alpha))
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                var summed: (first: Int, second: Int, weight: UInt16) = (-1, -1, 0)
                for y in mapping.rows {
                    let sample = ScaleMapping.bilinear(mapping.sourceY(y), in: mapping.sourceRows)
                    let (w0, w1) = Self.fixedWeights(sample.weight)
                    if summed != (sample.first, sample.second, w1) {
                        summed = (sample.first, sample.second, w1)
                        Self.blendRows(sourceBase + sample.first * sourceStride + firstColumn,
                                       sourceBase + sample.second * sourceStride + firstColumn,
                                       count: span, w0: w0, w1: w1, low: low, high: high)
                    }
                    let row = base + y * stride + mapping.columns.lowerBound
                    var i = 0
                    while i + 4 <= columnCount {
                        var pixels = Self.interpolate4(low: low, high: high, index: columnIndex + i, weights: columnWeights + i)
                        if blend {
                            pixels = PixelVector.blend(pixels, over: PixelVector.load(row + i),
                                                       alpha: alphaLanes, inverse: inverseLanes)
                        }
                        let masked = unsafeBitCast(pixels, to: SIMD4<UInt32>.self) & PixelVector.colorMask
                        PixelVector.store(unsafeBitCast(masked, to: Lanes.self), to: row + i)
                        i += 4
                    }
                    while i < columnCount {
                        let pixel = Self.interpolate1(low: low, high: high, index: columnIndex[i], weights: columnWeights[i])
                        row[i] = blend ? PixelMath.blend(pixel, over: row[i], alpha: UInt64(alpha)) : pixel
                        i += 1
                    }
                }
            }
        }
    }

    /// A weight in 0...1 as the 16-bit fractions of the first and second sample (each at most
    /// 65535; they add up to 65536 or, at the ends, 65535).
    @inline(__always)
    private static func fixedWeights(_ weight: Double) -> (UInt16, UInt16) {
        let w1 = min(Int((weight * 65536).rounded()), 65535)
        return (UInt16(min(65536 - w1, 65535)), UInt16(w1))
    }

    /// `count` pixels of rows `top` and `bottom` blended with weights w0 and w1 (1/65536ths) into
    /// `low` and `high` in 1/256ths of a level.
    @inline(__always)
    private static func blendRows(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, count: Int,
                                  w0: UInt16, w1: UInt16, low: UnsafeMutablePointer<UInt16>,
                                  high: UnsafeMutablePointer<UInt16>) {
        let lowOut = UnsafeMutableRawPointer(low), highOut = UnsafeMutableRawPointer(high)
        var x = 0
        if w1 == 0 {
            // On a source row: its values, scaled.
            while x + 4 <= count {
                let t = PixelVector.load(top + x)
                lowOut.storeBytes(of: t &<< 8, toByteOffset: x * 4, as: Lanes.self)
                highOut.storeBytes(of: t & PixelVector.highBytes, toByteOffset: x * 4, as: Lanes.self)
                x += 4
            }
        } else {
            let a = Lanes(repeating: w0), b = Lanes(repeating: w1)
            while x + 4 <= count {
                let t = PixelVector.load(top + x), u = PixelVector.load(bottom + x)
                let l = PixelVector.multiplyHigh(t &<< 8, a) &+ PixelVector.multiplyHigh(u &<< 8, b)
                let h = PixelVector.multiplyHigh(t & PixelVector.highBytes, a)
                    &+ PixelVector.multiplyHigh(u & PixelVector.highBytes, b)
                lowOut.storeBytes(of: l, toByteOffset: x * 4, as: Lanes.self)
                highOut.storeBytes(of: h, toByteOffset: x * 4, as: Lanes.self)
                x += 4
            }
        }
        // The last few pixels one at a time, with the same arithmetic.
        @inline(__always) func mulhi(_ v: UInt32, _ w: UInt16) -> UInt16 { UInt16(truncatingIfNeeded: (v * UInt32(w)) >> 16) }
        while x < count {
            let t = top[x], u = bottom[x]
            for lane in 0..<2 {
                let shift = UInt32(lane * 16)
                let tl = (t >> shift & 0xFF) << 8, th = (t >> shift) & 0xFF00
                let ul = (u >> shift & 0xFF) << 8, uh = (u >> shift) & 0xFF00
                if w1 == 0 {
                    low[2 * x + lane] = UInt16(tl)
                    high[2 * x + lane] = UInt16(th)
                } else {
                    low[2 * x + lane] = mulhi(tl, w0) &+ mulhi(ul, w1)
                    high[2 * x + lane] = mulhi(th, w0) &+ mulhi(uh, w1)
                }
            }
            x += 1
        }
    }

    /// Four destination pixels from the blended row: for each, its two neighbours' values
    /// weighted and added, rounded back to bytes.
    @inline(__always)
    private static func interpolate4(low: UnsafePointer<UInt16>, high: UnsafePointer<UInt16>,
                                     index: UnsafePointer<Int>, weights: UnsafePointer<SIMD4<UInt16>>) -> Lanes {
        let lowRaw = UnsafeRawPointer(low), highRaw = UnsafeRawPointer(high)
        let i0 = index[0] * 4, i1 = index[1] * 4, i2 = index[2] * 4, i3 = index[3] * 4
        let w01 = Lanes(lowHalf: weights[0], highHalf: weights[1]), w23 = Lanes(lowHalf: weights[2], highHalf: weights[3])
        // (value, next value) pairs of two pixels each, weighted.
        func pairs(_ raw: UnsafeRawPointer) -> Lanes {
            let p01 = PixelVector.multiplyHigh(Lanes(lowHalf: raw.loadUnaligned(fromByteOffset: i0, as: SIMD4<UInt16>.self),
                                                     highHalf: raw.loadUnaligned(fromByteOffset: i1, as: SIMD4<UInt16>.self)), w01)
            let p23 = PixelVector.multiplyHigh(Lanes(lowHalf: raw.loadUnaligned(fromByteOffset: i2, as: SIMD4<UInt16>.self),
                                                     highHalf: raw.loadUnaligned(fromByteOffset: i3, as: SIMD4<UInt16>.self)), w23)
            // Add each pixel's two weighted neighbours: 32-bit lanes 0+1 and 2+3 of each vector.
            let a = unsafeBitCast(p01, to: SIMD4<UInt32>.self), b = unsafeBitCast(p23, to: SIMD4<UInt32>.self)
            let first = SIMD4<UInt32>(a[0], a[2], b[0], b[2]), second = SIMD4<UInt32>(a[1], a[3], b[1], b[3])
            return unsafeBitCast(first, to: Lanes.self) &+ unsafeBitCast(second, to: Lanes.self)
        }
        let rounding = Lanes(repeating: 128)
        let l = (pairs(lowRaw) &+ rounding) &>> 8, h = (pairs(highRaw) &+ rounding) & PixelVector.highBytes
        return l | h
    }

    /// `interpolate4` for one pixel.
    @inline(__always)
    private static func interpolate1(low: UnsafePointer<UInt16>, high: UnsafePointer<UInt16>, index: Int,
                                     weights: SIMD4<UInt16>) -> UInt32 {
        @inline(__always) func mulhi(_ v: UInt16, _ w: UInt16) -> UInt32 { (UInt32(v) * UInt32(w)) >> 16 }
        var pixel: UInt32 = 0
        for lane in 0..<2 {
            let l = (mulhi(low[2 * index + lane], weights[0]) + mulhi(low[2 * index + 2 + lane], weights[2]) + 128) >> 8
            let h = (mulhi(high[2 * index + lane], weights[0]) + mulhi(high[2 * index + 2 + lane], weights[2]) + 128) & 0xFF00
            pixel |= (l | h) << UInt32(lane * 16)
        }
        return pixel & 0x00FF_FFFF
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
