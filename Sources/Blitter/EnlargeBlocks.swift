import CBlitterKernels

/// The pairs of an enlarging resample's destination columns in blocks of eight for the AVX2 pass
/// across (`vitrine_enlarge_across_avx2`): each block's left pixels read from one window of eight
/// source pixels (straight, where they are consecutive, as nearly all are near 1:1; else picked
/// with one permute), its right pixels from the window one pixel on, and the weights as bytes in
/// the order the kernel multiplies them. Built once per draw, shared by every source row. Only
/// when every block's left pixels fit in eight and the source row holds nine (an enlargement
/// always does, from nine pixels wide): else nil, and the 128-bit path draws. Owns its blocks.
final class EnlargeBlocks {
    let blocks: UnsafeMutablePointer<vitrine_enlarge_block>
    /// Blocks of eight columns: `columnCount` rounded up.
    let count: Int

    /// `offsets`: each destination column's pair as a byte offset in a source row (its left pixel
    /// times 4), `weights`: its weights as the 128-bit path holds them (left x4, right x4), both
    /// for `columnCount` columns rounded up to eight.
    init?(offsets: UnsafePointer<Int32>, weights: UnsafePointer<Lanes>, columnCount: Int, sourceWidth: Int) {
        guard sourceWidth >= 9 else { return nil }
        let count = (columnCount + 7) / 8
        var entries: [vitrine_enlarge_block] = []
        entries.reserveCapacity(count)
        for block in 0..<count {
            /// Column k's left pixel.
            func left(_ k: Int) -> Int { Int(offsets[8 * block + k]) / 4 }
            var first = Int.max, last = Int.min
            for k in 0..<8 {
                first = min(first, left(k))
                last = max(last, left(k))
            }
            // The right neighbours are read from the window one pixel on: it ends a pixel before
            // the row does.
            let window = min(first, sourceWidth - 9)
            guard first >= 0, last + 1 < sourceWidth, last - window <= 7 else { return nil }
            var entry = vitrine_enlarge_block()
            entry.window = Int32(window * 4)
            entry.consecutive = (0..<8).allSatisfy { left($0) == window + $0 } ? 1 : 0
            withUnsafeMutableBytes(of: &entry.pick) { raw in
                let pick = raw.bindMemory(to: UInt32.self)
                for k in 0..<8 { pick[k] = UInt32(left(k) - window) }
            }
            withUnsafeMutableBytes(of: &entry.weights) { raw in
                // Columns 0, 1, 4, 5 (the low halves of each lane), then 2, 3, 6, 7; per column
                // its (left, right) weights for each of the four channels.
                for (slot, k) in [0, 1, 4, 5, 2, 3, 6, 7].enumerated() {
                    let w = weights[8 * block + k]
                    for channel in 0..<4 {
                        raw[16 * (slot / 2) + 8 * (slot % 2) + 2 * channel] = UInt8(truncatingIfNeeded: w[0])
                        raw[16 * (slot / 2) + 8 * (slot % 2) + 2 * channel + 1] = UInt8(truncatingIfNeeded: w[4])
                    }
                }
            }
            entries.append(entry)
        }
        blocks = UnsafeMutablePointer<vitrine_enlarge_block>.allocate(capacity: max(count, 1))
        blocks.initialize(from: entries, count: count)
        self.count = count
    }

    deinit { blocks.deallocate() }
}
