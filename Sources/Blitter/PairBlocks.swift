import CBlitterKernels

/// The bilinear pairs of a destination row in blocks of four pixels for the AVX2 kernel
/// (`vitrine_bilinear_pairs_avx2`): each block's eight source pixels (every pixel's left and right
/// neighbour) read as one window of eight consecutive source pixels and permuted into place, with
/// the horizontal weights in the order the kernel multiplies them. Built once per draw, shared by
/// every row. Only when every block's pairs fit in eight pixels (a shrink to half or more; the
/// mip chain keeps shrinks there) and the source row holds eight: else nil, and the 128-bit path
/// draws. Owns its blocks: they go with it.
final class PairBlocks {
    let blocks: UnsafeMutablePointer<vitrine_pair_block>
    /// Whole blocks: the first 4 * count destination columns; the rest are drawn one by one.
    let count: Int

    /// `offsets`: each destination column's pair as a byte offset in a source row (its left pixel
    /// times 4); `weights`: its weights as the 128-bit path holds them (left x4, right x4).
    init?(offsets: UnsafePointer<Int32>, weights: UnsafePointer<Lanes>, count columnCount: Int, sourceWidth: Int) {
        guard sourceWidth >= 8 else { return nil }
        let count = columnCount / 4
        var windows = [Int](repeating: 0, count: count)
        for block in 0..<count {
            var first = Int.max, last = Int.min
            for k in 0..<4 {
                let left = Int(offsets[4 * block + k]) / 4
                first = min(first, left)
                last = max(last, left + 1)
            }
            // A window at the row's end starts eight pixels before it.
            let window = min(first, sourceWidth - 8)
            guard first >= 0, last < sourceWidth, last - window <= 7 else { return nil }
            windows[block] = window
        }
        blocks = UnsafeMutablePointer<vitrine_pair_block>.allocate(capacity: max(count, 1))
        self.count = count
        for block in 0..<count {
            var entry = vitrine_pair_block()
            let window = windows[block]
            entry.window = Int32(window * 4)
            withUnsafeMutableBytes(of: &entry.pick) { raw in
                let pick = raw.bindMemory(to: UInt32.self)
                for k in 0..<4 {
                    let left = Int(offsets[4 * block + k]) / 4 - window
                    pick[2 * k] = UInt32(left)
                    pick[2 * k + 1] = UInt32(left + 1)
                }
            }
            withUnsafeMutableBytes(of: &entry.weights) { raw in
                let lanes = raw.bindMemory(to: UInt16.self)
                // Pixels 0 and 2 (the kernel's low bytes of each lane), then 1 and 3.
                for (slot, k) in [0, 2, 1, 3].enumerated() {
                    let w = weights[4 * block + k]
                    for lane in 0..<8 { lanes[8 * slot + lane] = w[lane] }
                }
            }
            blocks[block] = entry
        }
    }

    deinit { blocks.deallocate() }
}
