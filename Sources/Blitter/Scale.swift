import CBlitterKernels
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
        drawScaled(source, sourceRect: sourceRect, into: destination, clip: clip, quality: quality, alpha: alpha,
                   wide: Self.wideKernels)
    }

    /// Whether this CPU runs the 256-bit kernels (AVX2), checked once.
    static let wideKernels = vitrine_blitter_has_avx2() != 0

    /// `drawScaled` with the 256-bit kernels or without (the tests compare the two).
    mutating func drawScaled(_ source: Bitmap, sourceRect: Rect, into destination: Rect, clip: PixelRect,
                             quality: ScaleQuality, alpha: Double, wide: Bool) {
        let a = PixelMath.alphaWeight(alpha)
        guard a > 0, !source.isEmpty,
              let mapping = ScaleMapping(sourceSize: (source.width, source.height), sourceRect: sourceRect,
                                         destination: destination, clip: clip.intersection(bounds))
        else { return }
        switch quality {
        case .bilinear where mapping.stepX < 65536 && mapping.stepY <= 65536 && source.width >= 2:
            // Enlarging across (1:1 across has its own paths below) and not shrinking down.
            drawBilinearEnlarging(source, mapping: mapping, alpha: a, wide: wide)
        case .bilinear: drawBilinear(source, mapping: mapping, alpha: a, wide: wide)
        case .nearest: drawNearest(source, mapping: mapping, alpha: a)
        }
    }

    /// Separable, in 16-bit fixed point on several pixels at a time (SIMD8<UInt16>: SSE2, NEON).
    /// Each destination row first blends its two source rows into a row of channel values in
    /// 1/256ths of a level, four 16-bit lanes per pixel (reused by the next destination row when it
    /// reads the same rows, as when enlarging); then each destination pixel blends two neighbours
    /// of that row, whose eight lanes sit next to each other. Weights are 16-bit fractions applied
    /// with a high-half multiply (`pmulhuw`), so the result is within one level of the exact
    /// `drawScaledReference`, and a constant colour comes out unchanged.
    ///
    /// Unless enlarging by 1.5x or more, there is no blended row: each destination pixel reads its
    /// pair of neighbours from both source rows (8 bytes each) and blends them down with 8-bit
    /// weights in plain 16-bit multiplies (`pmullw`, no widening: 255 * 256 fits), then across as
    /// above. When shrinking that does less work than blending every source pixel of the rows,
    /// and nothing is stored and read back. The 8-bit vertical weight is off by at most 1/512,
    /// half a level at worst, so the result still rounds to within one level of the reference.
    ///
    /// With `wide` (AVX2), the pairs are read four destination pixels at a time from a window of
    /// eight source pixels (`PairBlocks`), the same integers on 256-bit vectors (down, each
    /// channel next to the row below's, both times their weights in one `pmaddubsw`).
    private mutating func drawBilinear(_ source: Bitmap, mapping: ScaleMapping, alpha: Int, wide: Bool) {
        let columnCount = mapping.columns.count, stride = self.stride, sourceStride = source.stride
        let firstColumn = ScaleMapping.bilinear(mapping.sourceX(mapping.columns.lowerBound), in: mapping.sourceColumns).first
        var lastColumn = firstColumn
        // Per destination column: its first source column (relative to `firstColumn`) and the
        // weights of it and the next, as lanes (w0 x 4, w1 x 4) matching the two pixels' channels.
        let columnIndex = UnsafeMutablePointer<Int>.allocate(capacity: columnCount)
        let columnWeights = UnsafeMutablePointer<Lanes>.allocate(capacity: columnCount)
        defer { columnIndex.deallocate(); columnWeights.deallocate() }
        for (i, x) in mapping.columns.enumerated() {
            let sample = ScaleMapping.bilinear(mapping.sourceX(x), in: mapping.sourceColumns)
            let (w0, w1) = Self.fixedWeights(sample.weight)
            columnIndex[i] = sample.first - firstColumn
            columnWeights[i] = Lanes(lowHalf: SIMD4(repeating: w0), highHalf: SIMD4(repeating: w1))
            lastColumn = sample.second
        }
        let span = lastColumn - firstColumn + 1
        // `columnIndex` as byte offsets into the blended row (8 bytes a pixel).
        let blendedOffset = UnsafeMutablePointer<Int32>.allocate(capacity: columnCount)
        defer { blendedOffset.deallocate() }
        for i in 0..<columnCount { blendedOffset[i] = Int32(truncatingIfNeeded: columnIndex[i] * 8) }
        // The same per destination column for reading two source rows directly: the byte offset
        // of a pair of neighbours within a source row, and their weights. A sample clamped onto
        // the last column (its neighbour's weight 0) reads the pair ending there instead, the
        // weights swapped, so no pair runs past the row; the sums are the same.
        let pairsFit = source.width >= 2
        let pairOffset = UnsafeMutablePointer<Int32>.allocate(capacity: columnCount)
        let pairWeights = UnsafeMutablePointer<Lanes>.allocate(capacity: columnCount)
        defer { pairOffset.deallocate(); pairWeights.deallocate() }
        if pairsFit {
            for i in 0..<columnCount {
                let column = columnIndex[i] + firstColumn, weights = columnWeights[i]
                if column + 1 < source.width {
                    pairOffset[i] = Int32(truncatingIfNeeded: column * 4)
                    pairWeights[i] = weights
                } else {
                    pairOffset[i] = Int32(truncatingIfNeeded: (column - 1) * 4)
                    pairWeights[i] = Lanes(lowHalf: weights.highHalf, highHalf: weights.lowHalf)
                }
            }
        }
        let rowWeights = UnsafeMutablePointer<Lanes>.allocate(capacity: 4)
        rowWeights.initialize(repeating: Lanes(), count: 4)
        defer { rowWeights.deallocate() }
        // Reading pairs costs a vertical blend per destination pixel, the blended row one per
        // source pixel plus a store and a load: the row only pays when enlarging by 1.5x or more.
        let pairsPerPixel = pairsFit && 3 * span > 2 * columnCount
        // The blended source row: blue, green, red, x of each pixel, times 256. One spare pixel
        // keeps `x + 1` readable where its weight is 0.
        let laneCount = (span + 1) * 4
        let blended = UnsafeMutablePointer<UInt16>.allocate(capacity: laneCount)
        blended.initialize(repeating: 0, count: laneCount)
        defer { blended.deallocate() }

        let blend = alpha < PixelMath.opaque
        let alphaLanes = Lanes(repeating: UInt16(alpha)), inverseLanes = Lanes(repeating: UInt16(PixelMath.opaque - alpha))
        /// Four finished pixels into the row, over what is there at `alpha`.
        @inline(__always) func emit(_ pixels: Lanes, _ to: UnsafeMutablePointer<UInt32>) {
            let laid = blend ? PixelVector.blend(pixels, over: PixelVector.load(to), alpha: alphaLanes, inverse: inverseLanes) : pixels
            PixelVector.storePixels(laid, to: to)
        }
        @inline(__always) func w0Lanes(_ w: UInt16) -> Lanes { Lanes(repeating: w) }
        // A 1:1 scale across (a page sliding, a grid cell's thumbnail): every destination column
        // reads the source column under it and the next with the same weights, so whole vectors
        // of neighbours line up; at a whole-pixel offset there is no horizontal blend at all.
        var isTranslation = true
        for i in 0..<columnCount where columnIndex[i] != i || columnWeights[i] != columnWeights[0] {
            isTranslation = false
            break
        }
        let across = Lanes(repeating: columnWeights[0][0]), acrossNext = Lanes(repeating: columnWeights[0][4])
        let columnsAreSourceColumns = isTranslation && columnWeights[0][4] == 0
        // Only the pairs branch below reads them: a translation takes its own paths.
        let blocks = wide && pairsPerPixel && !isTranslation
            ? PairBlocks(offsets: pairOffset, weights: pairWeights, count: columnCount, sourceWidth: source.width) : nil
        /// Two pixels from the lanes of them and of their right neighbours.
        @inline(__always) func slid(_ here: Lanes, _ next: Lanes) -> Lanes {
            PixelVector.multiplyHigh(here, across) &+ PixelVector.multiplyHigh(next, acrossNext)
        }
        @inline(__always) func bytes(_ low: Lanes, _ high: Lanes) -> Lanes {
            let rounding = Lanes(repeating: 128)
            return unsafeBitCast(SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: (low &+ rounding) &>> 8),
                                               highHalf: SIMD8<UInt8>(truncatingIfNeeded: (high &+ rounding) &>> 8)),
                                 to: Lanes.self)
        }
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                var summed: (first: Int, second: Int, weight: UInt16) = (-1, -1, 0)
                var skipNext = false
                for y in mapping.rows {
                    if skipNext {
                        skipNext = false
                        continue
                    }
                    let sample = ScaleMapping.bilinear(mapping.sourceY(y), in: mapping.sourceRows)
                    let (w0, w1) = Self.fixedWeights(sample.weight)
                    let row = base + y * stride + mapping.columns.lowerBound
                    let top = sourceBase + sample.first * sourceStride + firstColumn
                    if columnsAreSourceColumns {
                        // 1:1 across: only the vertical blend, straight into the row.
                        let bottom = sourceBase + sample.second * sourceStride + firstColumn
                        /// Four pixels from `k` on.
                        @inline(__always) func four(_ k: Int) {
                            let pixels = w1 == 0 ? PixelVector.load(top + k)
                                : Self.blendRows4(top + k, bottom + k, w0: w0Lanes(w0), w1: w0Lanes(w1))
                            emit(pixels, row + k)
                        }
                        var i = 0
                        if y + 1 < mapping.rows.upperBound {
                            // The next row's new source row and its target asked for a row ahead,
                            // a cache line per 16 pixels: the hardware's prefetcher starts late on
                            // each row of a cell.
                            let nextSource = sourceBase + ScaleMapping.bilinear(mapping.sourceY(y + 1), in: mapping.sourceRows).second
                                * sourceStride + firstColumn
                            let nextRow = row + stride
                            while i + 16 <= columnCount {
                                vitrine_prefetch(nextSource + i)
                                vitrine_prefetch_for_writing(nextRow + i)
                                four(i); four(i + 4); four(i + 8); four(i + 12)
                                i += 16
                            }
                        }
                        while i + 4 <= columnCount {
                            four(i)
                            i += 4
                        }
                        while i < columnCount {
                            let pixel = Self.blendRows1(top[i], bottom[i], w0: w0, w1: w1)
                            row[i] = blend ? PixelMath.blend(pixel, over: row[i], alpha: UInt64(alpha)) : pixel
                            i += 1
                        }
                        continue
                    }
                    if isTranslation && w1 == 0 {
                        // On a source row, sliding: straight from its pixels.
                        var i = 0
                        while i + 4 <= columnCount {
                            // Pixels i..i+3 and their right neighbours, one load each.
                            let here = UnsafeRawPointer(top + i).loadUnaligned(as: SIMD16<UInt8>.self)
                            let next = UnsafeRawPointer(top + i + 1).loadUnaligned(as: SIMD16<UInt8>.self)
                            emit(bytes(slid(Self.topBytes(here.lowHalf), Self.topBytes(next.lowHalf)),
                                       slid(Self.topBytes(here.highHalf), Self.topBytes(next.highHalf))), row + i)
                            i += 4
                        }
                        while i < columnCount {
                            let pixel = Self.interpolate1(pixels: top, index: i, last: span - 1, weights: columnWeights[i])
                            row[i] = blend ? PixelMath.blend(pixel, over: row[i], alpha: UInt64(alpha)) : pixel
                            i += 1
                        }
                        continue
                    }
                    if w1 == 0 {
                        // On a source row: interpolate across straight from its pixels.
                        // Pairs are read up to the last touched column, never past it.
                        var i = 0
                        while i + 4 <= columnCount && columnIndex[i + 3] + 2 <= span {
                            emit(Self.interpolate4(pixels: top, index: columnIndex + i, weights: columnWeights + i), row + i)
                            i += 4
                        }
                        while i < columnCount {
                            let pixel = Self.interpolate1(pixels: top, index: columnIndex[i], last: span - 1,
                                                          weights: columnWeights[i])
                            row[i] = blend ? PixelMath.blend(pixel, over: row[i], alpha: UInt64(alpha)) : pixel
                            i += 1
                        }
                        continue
                    }
                    if pairsPerPixel && !isTranslation {
                        // Both rows' pairs straight into each destination pixel: no blended row.
                        let topRow = UnsafeRawPointer(sourceBase + sample.first * sourceStride)
                        let bottomRow = UnsafeRawPointer(sourceBase + sample.second * sourceStride)
                        if let blocks {
                            /// The source row the next destination row reads that this one does not.
                            func nextSourceRow(_ y: Int) -> UnsafePointer<UInt8>? {
                                guard y + 1 < mapping.rows.upperBound else { return nil }
                                let next = ScaleMapping.bilinear(mapping.sourceY(y + 1), in: mapping.sourceRows)
                                return UnsafeRawPointer(sourceBase + next.second * sourceStride).assumingMemoryBound(to: UInt8.self)
                            }
                            // 128ths doubled (`ScaleMapping.weightSteps`): even, which the kernel needs.
                            let down = UInt16(min(Int((sample.weight * 256).rounded()), 256))
                            vitrine_bilinear_pairs_avx2(topRow.assumingMemoryBound(to: UInt8.self),
                                                        bottomRow.assumingMemoryBound(to: UInt8.self),
                                                        256 - down, down, blocks.blocks, blocks.count, row, UInt16(alpha),
                                                        nextSourceRow(y), y + 1 < mapping.rows.upperBound ? row + stride : nil)
                            rowWeights[0] = Lanes(repeating: 256 - down)
                            rowWeights[1] = Lanes(repeating: down)
                            for i in (4 * blocks.count)..<columnCount {
                                let offset = Int(pairOffset[i])
                                let t = Lanes(truncatingIfNeeded: topRow.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self))
                                let u = Lanes(truncatingIfNeeded: bottomRow.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self))
                                let p = PixelVector.multiplyHigh(t &* rowWeights[0] &+ u &* rowWeights[1], pairWeights[i])
                                let bytes = unsafeBitCast(Self.finish(p, p, p, p), to: SIMD4<UInt32>.self)[0] & 0x00FF_FFFF
                                row[i] = blend ? PixelMath.blend(bytes, over: row[i], alpha: UInt64(alpha)) : bytes
                            }
                            continue
                        }
                        // Read from memory in the loop: held in registers, the optimiser rebuilds
                        // the splats on every iteration from wider vectors. 8-bit weights adding
                        // up to 256, so the blend is a channel times 256 like the blended row's.
                        let down = UInt16(min(Int((sample.weight * 256).rounded()), 256))
                        rowWeights[0] = Lanes(repeating: 256 - down)
                        rowWeights[1] = Lanes(repeating: down)
                        @inline(__always) func weighted(_ k: Int) -> Lanes {
                            let offset = Int(pairOffset[k])
                            let t = Lanes(truncatingIfNeeded: topRow.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self))
                            let u = Lanes(truncatingIfNeeded: bottomRow.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self))
                            let v = t &* rowWeights[0] &+ u &* rowWeights[1]
                            return PixelVector.multiplyHigh(v, pairWeights[k])
                        }
                        let next = y + 1 < mapping.rows.upperBound
                            ? ScaleMapping.bilinear(mapping.sourceY(y + 1), in: mapping.sourceRows) : nil
                        if let next, Self.fixedWeights(next.weight).1 != 0 {
                            // Two destination rows in one pass: the column tables read once, and
                            // when the second's top source row is the first's bottom (enlarging, or
                            // a little shrinking) that row's pairs loaded and widened once.
                            let shared = next.first == sample.second
                            let downNext = UInt16(min(Int((next.weight * 256).rounded()), 256))
                            rowWeights[2] = Lanes(repeating: 256 - downNext)
                            rowWeights[3] = Lanes(repeating: downNext)
                            let nextTopRow = UnsafeRawPointer(sourceBase + next.first * sourceStride)
                            let nextBottomRow = UnsafeRawPointer(sourceBase + next.second * sourceStride)
                            let nextRow = row + stride
                            @inline(__always) func weightedTwice(_ k: Int, _ shared: Bool) -> (Lanes, Lanes) {
                                let offset = Int(pairOffset[k])
                                @inline(__always) func load(_ from: UnsafeRawPointer) -> Lanes {
                                    Lanes(truncatingIfNeeded: from.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self))
                                }
                                let t = load(topRow), u = load(bottomRow)
                                let nextT = shared ? u : load(nextTopRow), nextU = load(nextBottomRow)
                                let weights = pairWeights[k]
                                return (PixelVector.multiplyHigh(t &* rowWeights[0] &+ u &* rowWeights[1], weights),
                                        PixelVector.multiplyHigh(nextT &* rowWeights[2] &+ nextU &* rowWeights[3], weights))
                            }
                            @inline(__always) func both(_ shared: Bool) {
                                var i = 0
                                while i + 4 <= columnCount {
                                    let (a0, b0) = weightedTwice(i, shared), (a1, b1) = weightedTwice(i + 1, shared)
                                    let (a2, b2) = weightedTwice(i + 2, shared), (a3, b3) = weightedTwice(i + 3, shared)
                                    emit(Self.finish(a0, a1, a2, a3), row + i)
                                    emit(Self.finish(b0, b1, b2, b3), nextRow + i)
                                    i += 4
                                }
                                while i < columnCount {
                                    let (a, b) = weightedTwice(i, shared)
                                    let pixels = unsafeBitCast(Self.finish(a, a, b, b), to: SIMD4<UInt32>.self)
                                    let upper = pixels[0] & 0x00FF_FFFF, lower = pixels[2] & 0x00FF_FFFF
                                    row[i] = blend ? PixelMath.blend(upper, over: row[i], alpha: UInt64(alpha)) : upper
                                    nextRow[i] = blend ? PixelMath.blend(lower, over: nextRow[i], alpha: UInt64(alpha)) : lower
                                    i += 1
                                }
                            }
                            if shared { both(true) } else { both(false) }
                            skipNext = true
                            continue
                        }
                        var i = 0
                        while i + 8 <= columnCount {
                            emit(Self.finish(weighted(i), weighted(i + 1), weighted(i + 2), weighted(i + 3)), row + i)
                            emit(Self.finish(weighted(i + 4), weighted(i + 5), weighted(i + 6), weighted(i + 7)), row + i + 4)
                            i += 8
                        }
                        while i + 4 <= columnCount {
                            emit(Self.finish(weighted(i), weighted(i + 1), weighted(i + 2), weighted(i + 3)), row + i)
                            i += 4
                        }
                        while i < columnCount {
                            let p = weighted(i)
                            let bytes = unsafeBitCast(Self.finish(p, p, p, p), to: SIMD4<UInt32>.self)[0]
                            row[i] = blend ? PixelMath.blend(bytes & 0x00FF_FFFF, over: row[i], alpha: UInt64(alpha)) : bytes & 0x00FF_FFFF
                            i += 1
                        }
                        continue
                    }
                    if summed != (sample.first, sample.second, w1) {
                        summed = (sample.first, sample.second, w1)
                        rowWeights[0] = Lanes(repeating: w0)
                        rowWeights[1] = Lanes(repeating: w1)
                        Self.blendRows(top, sourceBase + sample.second * sourceStride + firstColumn,
                                       count: span, w0: w0, w1: w1, weights: rowWeights, into: blended)
                    }
                    var i = 0
                    if isTranslation {
                        let raw = UnsafeRawPointer(blended)
                        @inline(__always) func lanes(_ pixel: Int) -> Lanes { raw.loadUnaligned(fromByteOffset: pixel * 8, as: Lanes.self) }
                        while i + 4 <= columnCount {
                            emit(bytes(slid(lanes(i), lanes(i + 1)), slid(lanes(i + 2), lanes(i + 3))), row + i)
                            i += 4
                        }
                    }
                    while i + 4 <= columnCount {
                        emit(Self.interpolate4(blended, offset: blendedOffset + i, weights: columnWeights + i), row + i)
                        i += 4
                    }
                    while i < columnCount {
                        let pixel = Self.interpolate1(blended, index: columnIndex[i], weights: columnWeights[i])
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

    /// `Lanes(repeating:)` built from 32-bit lanes: the optimiser keeps this one in a register,
    /// where it rebuilt the other inside the loop.
    @inline(__always)
    private static func splat(_ w: UInt16) -> Lanes {
        unsafeBitCast(SIMD4<UInt32>(repeating: UInt32(w) &* 0x1_0001), to: Lanes.self)
    }

    /// Two pixels' channels, each byte moved to the top of a 16-bit lane (times 256).
    @inline(__always)
    private static func widen(_ pixels: UnsafePointer<UInt32>) -> Lanes {
        topBytes(UnsafeRawPointer(pixels).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    /// Eight bytes as the high bytes of eight 16-bit lanes, the low bytes 0 (one `punpcklbw`).
    @inline(__always)
    private static func topBytes(_ b: SIMD8<UInt8>) -> Lanes {
        unsafeBitCast(SIMD16<UInt8>(0, b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, b[5], 0, b[6], 0, b[7]), to: Lanes.self)
    }

    /// `count` pixels of rows `top` and `bottom` blended with weights w0 and w1 (1/65536ths) into
    /// `out`, four lanes per pixel, in 1/256ths of a level.
    @inline(__always)
    private static func blendRows(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, count: Int,
                                  w0: UInt16, w1: UInt16, weights: UnsafePointer<Lanes>, into out: UnsafeMutablePointer<UInt16>) {
        let raw = UnsafeMutableRawPointer(out)
        var x = 0
        if w1 == 0 {
            // On a source row: its values, scaled.
            while x + 2 <= count {
                raw.storeBytes(of: widen(top + x), toByteOffset: x * 8, as: Lanes.self)
                x += 2
            }
        } else {
            // From memory: held in registers, the optimiser rebuilds these splats in the loop.
            @inline(__always) var a: Lanes { weights[0] }
            @inline(__always) var b: Lanes { weights[1] }
            while x + 4 <= count {
                // Four pixels per load, two per 16-bit vector.
                let t = UnsafeRawPointer(top + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let u = UnsafeRawPointer(bottom + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let v0 = PixelVector.multiplyHigh(topBytes(t.lowHalf), a) &+ PixelVector.multiplyHigh(topBytes(u.lowHalf), b)
                let v1 = PixelVector.multiplyHigh(topBytes(t.highHalf), a) &+ PixelVector.multiplyHigh(topBytes(u.highHalf), b)
                raw.storeBytes(of: v0, toByteOffset: x * 8, as: Lanes.self)
                raw.storeBytes(of: v1, toByteOffset: x * 8 + 16, as: Lanes.self)
                x += 4
            }
            while x + 2 <= count {
                let v = PixelVector.multiplyHigh(widen(top + x), a) &+ PixelVector.multiplyHigh(widen(bottom + x), b)
                raw.storeBytes(of: v, toByteOffset: x * 8, as: Lanes.self)
                x += 2
            }
        }
        // A last odd pixel with the same arithmetic.
        while x < count {
            for channel in 0..<4 {
                let shift = UInt32(channel * 8)
                let t = (top[x] >> shift & 0xFF) << 8, u = (bottom[x] >> shift & 0xFF) << 8
                out[4 * x + channel] = w1 == 0 ? UInt16(t)
                    : UInt16(truncatingIfNeeded: (t * UInt32(w0)) >> 16 + (u * UInt32(w1)) >> 16)
            }
            x += 1
        }
    }

    /// Four destination pixels from the blended row: for each, its two neighbours' eight lanes
    /// weighted, the halves added, rounded back to bytes.
    @inline(__always)
    private static func interpolate4(_ blended: UnsafePointer<UInt16>, offset: UnsafePointer<Int32>,
                                     weights: UnsafePointer<Lanes>) -> Lanes {
        let raw = UnsafeRawPointer(blended)
        @inline(__always) func weighted(_ k: Int) -> Lanes {
            PixelVector.multiplyHigh(raw.loadUnaligned(fromByteOffset: Int(offset[k]), as: Lanes.self), weights[k])
        }
        return finish(weighted(0), weighted(1), weighted(2), weighted(3))
    }

    /// Four pixels of two rows blended with weights w0 and w1 (1/65536ths), rounded to bytes.
    @inline(__always)
    private static func blendRows4(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, w0: Lanes, w1: Lanes) -> Lanes {
        let rounding = Lanes(repeating: 128)
        let t = UnsafeRawPointer(top).loadUnaligned(as: SIMD16<UInt8>.self)
        let u = UnsafeRawPointer(bottom).loadUnaligned(as: SIMD16<UInt8>.self)
        func half(_ t: SIMD8<UInt8>, _ u: SIMD8<UInt8>) -> SIMD8<UInt8> {
            let v = PixelVector.multiplyHigh(topBytes(t), w0) &+ PixelVector.multiplyHigh(topBytes(u), w1)
            return SIMD8<UInt8>(truncatingIfNeeded: (v &+ rounding) &>> 8)
        }
        return unsafeBitCast(SIMD16<UInt8>(lowHalf: half(t.lowHalf, u.lowHalf), highHalf: half(t.highHalf, u.highHalf)),
                             to: Lanes.self)
    }

    /// `blendRows4` for one pixel.
    @inline(__always)
    private static func blendRows1(_ top: UInt32, _ bottom: UInt32, w0: UInt16, w1: UInt16) -> UInt32 {
        if w1 == 0 { return top & 0x00FF_FFFF }
        var pixel: UInt32 = 0
        for channel in 0..<3 {
            let shift = UInt32(channel * 8)
            let t = (top >> shift & 0xFF) << 8, u = (bottom >> shift & 0xFF) << 8
            let v = (t * UInt32(w0)) >> 16 + (u * UInt32(w1)) >> 16
            pixel |= ((v + 128) >> 8) << shift
        }
        return pixel
    }

    /// `interpolate4` reading a source row's pixels directly (a destination row on a source row).
    @inline(__always)
    private static func interpolate4(pixels: UnsafePointer<UInt32>, index: UnsafePointer<Int>,
                                     weights: UnsafePointer<Lanes>) -> Lanes {
        @inline(__always) func weighted(_ k: Int) -> Lanes { PixelVector.multiplyHigh(widen(pixels + index[k]), weights[k]) }
        return finish(weighted(0), weighted(1), weighted(2), weighted(3))
    }

    /// `interpolate1` reading a source row's pixels directly.
    @inline(__always)
    private static func interpolate1(pixels: UnsafePointer<UInt32>, index: Int, last: Int, weights: Lanes) -> UInt32 {
        // Past the last touched column the second weight is 0: any value in range will do.
        let next = min(index + 1, last)
        var pixel: UInt32 = 0
        for channel in 0..<3 {
            let shift = UInt32(channel * 8)
            let v0 = (pixels[index] >> shift & 0xFF) << 8, v1 = (pixels[next] >> shift & 0xFF) << 8
            let sum = (v0 * UInt32(weights[0])) >> 16 + (v1 * UInt32(weights[4])) >> 16
            pixel |= ((sum + 128) >> 8) << shift
        }
        return pixel
    }

    /// Four pixels' weighted neighbour pairs (eight lanes each: first neighbour, second) added
    /// and rounded to bytes.
    @inline(__always)
    private static func finish(_ p0: Lanes, _ p1: Lanes, _ p2: Lanes, _ p3: Lanes) -> Lanes {
        @inline(__always) func sum(_ p: Lanes, _ q: Lanes) -> Lanes {
            let p64 = unsafeBitCast(p, to: SIMD2<UInt64>.self), q64 = unsafeBitCast(q, to: SIMD2<UInt64>.self)
            return unsafeBitCast(SIMD2<UInt64>(p64[0], q64[0]), to: Lanes.self) &+ unsafeBitCast(SIMD2<UInt64>(p64[1], q64[1]), to: Lanes.self)
        }
        let rounding = Lanes(repeating: 128)
        let s01 = (sum(p0, p1) &+ rounding) &>> 8, s23 = (sum(p2, p3) &+ rounding) &>> 8
        let bytes = SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: s01), highHalf: SIMD8<UInt8>(truncatingIfNeeded: s23))
        return unsafeBitCast(bytes, to: Lanes.self)
    }

    /// `interpolate4` for one pixel.
    @inline(__always)
    private static func interpolate1(_ blended: UnsafePointer<UInt16>, index: Int, weights: Lanes) -> UInt32 {
        var pixel: UInt32 = 0
        for channel in 0..<3 {
            let v0 = UInt32(blended[4 * index + channel]), v1 = UInt32(blended[4 * index + 4 + channel])
            let sum = (v0 * UInt32(weights[0])) >> 16 + (v1 * UInt32(weights[4])) >> 16
            pixel |= ((sum + 128) >> 8) << UInt32(channel * 8)
        }
        return pixel
    }

    private mutating func drawNearest(_ source: Bitmap, mapping: ScaleMapping, alpha: Int) {
        let columnCount = mapping.columns.count, stride = self.stride, sourceStride = source.stride
        let opaque = alpha == PixelMath.opaque, weight = UInt64(alpha)
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

