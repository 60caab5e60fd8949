import CBlitterKernels
extension Bitmap {
    /// `drawScaled`'s bilinear pass when neither direction shrinks (a photo at or a little above
    /// its image's size: the last frames of an opening, a zoom), horizontal first.
    ///
    /// Each source row the destination needs is interpolated across once into a row of channel
    /// values in halves of a level (16-bit lanes); every destination row then blends two such
    /// rows down, a contiguous pass with no gathering. Enlarging, consecutive destination rows
    /// share source rows, so each is interpolated across about once. Across, four destination
    /// columns whose samples start at four consecutive source columns (nearly all of them at a
    /// scale near 1) read their pixels and their right neighbours as two 16-byte loads, no
    /// shuffles; the others gather their pairs.
    ///
    /// Only 16-bit multiplies: the weights are whole 1/128ths, so a channel times a weight pair
    /// sums to at most 255 * 128, and a half-level value times a pair to 510 * 128 < 65536. The
    /// across pass rounds to half a level (off by at most 1/4), the down pass to a level: within
    /// one level of `drawScaledReference`.
    ///
    /// With `wide` (AVX2, `EnlargeBlocks`), eight columns at a time: their left and right pixels
    /// as two loads (permuted only where the pairs are not consecutive), each channel next to its
    /// neighbour's and both times their weights in one `pmaddubsw`; the rows across are laid out
    /// so that the pass down packs eight pixels in order. The same integers as the 128-bit path.
    mutating func drawBilinearEnlarging(_ source: Bitmap, mapping: ScaleMapping, alpha: Int, wide: Bool) {
        // Padded to a multiple of eight columns (the AVX2 blocks); the 128-bit path works in fours.
        let columnCount = mapping.columns.count, padded = (columnCount + 7) / 8 * 8, groupCount = padded / 4
        // Per destination column (the padding repeats the last): the byte offset in a source row
        // of the pair it blends and the pair's weights as lanes (a x 4, b x 4), a + b = 128. A
        // sample clamped onto the last source column reads the pair ending there, weights swapped.
        let pairOffset = UnsafeMutablePointer<Int32>.allocate(capacity: padded)
        let weights = UnsafeMutablePointer<Lanes>.allocate(capacity: padded)
        // Per group of four columns: whether their pairs are consecutive. Such a group's four
        // weight slots hold (a of columns 0-1, a of 2-3, b of 0-1, b of 2-3) instead.
        let isRun = UnsafeMutablePointer<Bool>.allocate(capacity: groupCount)
        defer { pairOffset.deallocate(); weights.deallocate(); isRun.deallocate() }
        for i in 0..<padded {
            let x = mapping.columns.lowerBound + min(i, columnCount - 1)
            let sample = ScaleMapping.bilinear(mapping.sourceX(x), in: mapping.sourceColumns)
            var b = UInt16(sample.weight * 128), a = 128 - b, column = sample.first
            if column + 1 >= source.width {
                column -= 1
                swap(&a, &b)
            }
            pairOffset[i] = Int32(truncatingIfNeeded: column * 4)
            weights[i] = Lanes(lowHalf: SIMD4(repeating: a), highHalf: SIMD4(repeating: b))
        }
        // The AVX2 passes (across each source row into their own layout, and down) read every
        // block's pairs from one window (enlarging, eight columns span at most nine source
        // pixels), with the weights as they are before the runs' reorder.
        let blocks = wide ? EnlargeBlocks(offsets: pairOffset, weights: weights, columnCount: padded, sourceWidth: source.width) : nil
        for g in 0..<groupCount {
            let first = 4 * g, offset = pairOffset[first]
            isRun[g] = (1..<4).allSatisfy { pairOffset[first + $0] == offset + Int32(4 * $0) }
            guard isRun[g] else { continue }
            let w = (weights[first], weights[first + 1], weights[first + 2], weights[first + 3])
            weights[first] = Lanes(lowHalf: w.0.lowHalf, highHalf: w.1.lowHalf)
            weights[first + 1] = Lanes(lowHalf: w.2.lowHalf, highHalf: w.3.lowHalf)
            weights[first + 2] = Lanes(lowHalf: w.0.highHalf, highHalf: w.1.highHalf)
            weights[first + 3] = Lanes(lowHalf: w.2.highHalf, highHalf: w.3.highHalf)
        }

        // Two interpolated rows (4 lanes per padded column) and the source rows they hold.
        let rowLanes = padded * 4
        let across = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * rowLanes)
        defer { across.deallocate() }
        var held = (-1, -1)

        let stride = self.stride, sourceStride = source.stride
        let blend = alpha < PixelMath.opaque
        let alphaLanes = Lanes(repeating: UInt16(alpha)), inverseLanes = Lanes(repeating: UInt16(PixelMath.opaque - alpha))
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                /// The interpolated row of source row `r`, computed unless held; never overwrites
                /// the buffer holding `keep`.
                func interpolated(_ r: Int, keeping keep: Int) -> UnsafeMutablePointer<UInt16> {
                    if held.0 == r { return across }
                    if held.1 == r { return across + rowLanes }
                    let slot = held.0 == keep ? 1 : 0
                    let out = across + slot * rowLanes
                    if let blocks {
                        let next = r + 1 < source.height ? UnsafeRawPointer(sourceBase + (r + 1) * sourceStride) : nil
                        vitrine_enlarge_across_avx2(UnsafeRawPointer(sourceBase + r * sourceStride).assumingMemoryBound(to: UInt8.self),
                                                    blocks.blocks, blocks.count, out, next?.assumingMemoryBound(to: UInt8.self))
                    } else {
                        Self.interpolateAcross(UnsafeRawPointer(sourceBase + r * sourceStride), groupCount: groupCount,
                                               pairOffset: pairOffset, weights: weights, isRun: isRun, into: out,
                                               prefetching: r + 1 < source.height ? sourceStride * 4 : 0)
                    }
                    if slot == 0 { held.0 = r } else { held.1 = r }
                    return out
                }
                for y in mapping.rows {
                    let sample = ScaleMapping.bilinear(mapping.sourceY(y), in: mapping.sourceRows)
                    // The lower row's weight in 128ths; 0 reads one row.
                    let b = UInt16(sample.weight * 128)
                    let top = UnsafeRawPointer(interpolated(sample.first, keeping: sample.second))
                    let bottom = b == 0 ? top : UnsafeRawPointer(interpolated(sample.second, keeping: sample.first))
                    let upper = Lanes(repeating: 128 - b), lower = Lanes(repeating: b)
                    let row = base + y * stride + mapping.columns.lowerBound
                    /// Four finished pixels at column i: half-levels times 128ths is 256ths of a level.
                    @inline(__always) func four(_ i: Int) -> Lanes {
                        @inline(__always) func down(_ offset: Int) -> Lanes {
                            let t = top.loadUnaligned(fromByteOffset: offset, as: Lanes.self)
                            let u = bottom.loadUnaligned(fromByteOffset: offset, as: Lanes.self)
                            return t &* upper &+ u &* lower &+ Lanes(repeating: 128)
                        }
                        // Rounded: the high byte of each lane.
                        return unsafeBitCast(PixelVector.narrowHigh(down(i &* 8), down(i &* 8 &+ 16)), to: Lanes.self)
                    }
                    /// Pixels k..k+3 finished into the row, over what is there at `alpha`.
                    @inline(__always) func store(_ k: Int) {
                        var pixels = four(k)
                        if blend {
                            pixels = PixelVector.blend(pixels, over: PixelVector.load(row + k), alpha: alphaLanes, inverse: inverseLanes)
                        }
                        PixelVector.storePixels(pixels, to: row + k)
                    }
                    if blocks != nil {
                        // The whole row, its last pixels included: the rows across are in the
                        // AVX2 layout.
                        vitrine_enlarge_down_avx2(top.assumingMemoryBound(to: UInt16.self), bottom.assumingMemoryBound(to: UInt16.self),
                                                  128 - b, b, columnCount, row, UInt16(alpha),
                                                  y + 1 < mapping.rows.upperBound ? row + stride : nil)
                        continue
                    }
                    var i = 0
                    if y + 1 < mapping.rows.upperBound {
                        // The next target row asked for a row ahead, a cache line per 16 pixels.
                        let nextRow = row + stride
                        while i &+ 16 <= columnCount {
                            vitrine_prefetch_for_writing(nextRow + i)
                            store(i); store(i &+ 4); store(i &+ 8); store(i &+ 12)
                            i &+= 16
                        }
                    }
                    while i &+ 4 <= columnCount {
                        store(i)
                        i &+= 4
                    }
                    if i < columnCount {
                        let tail = unsafeBitCast(four(i), to: SIMD4<UInt32>.self)
                        for k in 0..<(columnCount - i) {
                            let pixel = tail[k] & 0x00FF_FFFF
                            row[i + k] = blend ? PixelMath.blend(pixel, over: row[i + k], alpha: UInt64(alpha)) : pixel
                        }
                    }
                }
            }
        }
    }

    /// One source row interpolated across for every (padded) destination column: four lanes per
    /// column, each channel in halves of a level (rounded).
    @inline(__always)
    private static func interpolateAcross(_ row: UnsafeRawPointer, groupCount: Int, pairOffset: UnsafePointer<Int32>,
                                          weights: UnsafePointer<Lanes>, isRun: UnsafePointer<Bool>,
                                          into out: UnsafeMutablePointer<UInt16>, prefetching nextRow: Int) {
        let raw = UnsafeMutableRawPointer(out)
        for g in 0..<groupCount {
            let first = 4 * g, w = weights + first
            // The row below (`nextRow` bytes on; 0: none), asked for a row ahead.
            if nextRow != 0 && g & 3 == 0 { vitrine_prefetch(row + Int(pairOffset[first]) + nextRow) }
            let low: Lanes, high: Lanes
            if isRun[g] {
                // Columns c..c+3 and their right neighbours c+1..c+4.
                let offset = Int(pairOffset[first])
                let here = row.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                let next = row.loadUnaligned(fromByteOffset: offset + 4, as: SIMD16<UInt8>.self)
                low = PixelVector.widen(PixelVector.low(here)) &* w[0] &+ PixelVector.widen(PixelVector.low(next)) &* w[2]
                high = PixelVector.widen(PixelVector.high(here)) &* w[1] &+ PixelVector.widen(PixelVector.high(next)) &* w[3]
            } else {
                @inline(__always) func pair(_ k: Int) -> Lanes {
                    PixelVector.widen(row.loadUnaligned(fromByteOffset: Int(pairOffset[first + k]), as: SIMD8<UInt8>.self)) &* w[k]
                }
                // Each pair's two weighted pixels added: the low 64 bits of one vector to its high.
                @inline(__always) func sum(_ p: Lanes, _ q: Lanes) -> Lanes {
                    let p64 = unsafeBitCast(p, to: SIMD2<UInt64>.self), q64 = unsafeBitCast(q, to: SIMD2<UInt64>.self)
                    return unsafeBitCast(SIMD2<UInt64>(p64[0], q64[0]), to: Lanes.self)
                        &+ unsafeBitCast(SIMD2<UInt64>(p64[1], q64[1]), to: Lanes.self)
                }
                low = sum(pair(0), pair(1))
                high = sum(pair(2), pair(3))
            }
            // 128ths of a level to halves, rounded.
            let rounding = Lanes(repeating: 32)
            raw.storeBytes(of: (low &+ rounding) &>> 6, toByteOffset: g &* 32, as: Lanes.self)
            raw.storeBytes(of: (high &+ rounding) &>> 6, toByteOffset: g &* 32 &+ 16, as: Lanes.self)
        }
    }
}
