import Testing
import Blitter
import TestSupport

@Suite struct ScanoutCopyTests {
    /// Every start (aligned to 16 bytes or not) and length around the 16-pixel blocks: the pixels
    /// of the source, none before or after them touched.
    @Test func copiesExactlyThePixelsAtAnyAlignmentAndLength() {
        let source = (0..<200).map { UInt32($0) &* 0x0101_0101 ^ 0x00A5_5A3C }
        for start in 0..<8 {
            for count in [0, 1, 3, 4, 15, 16, 17, 31, 32, 33, 63, 100, 150] {
                var target = [UInt32](repeating: TestImages.untouched, count: 200)
                source.withUnsafeBufferPointer { from in
                    target.withUnsafeMutableBufferPointer { to in
                        ScanoutCopy.writing { $0.copy(from: from.baseAddress! + start, to: to.baseAddress! + start, count: count) }
                    }
                }
                for i in 0..<200 {
                    let inside = i >= start && i < start + count
                    #expect(target[i] == (inside ? source[i] : TestImages.untouched), "start \(start), count \(count), pixel \(i)")
                }
            }
        }
    }

    @Test func copiesTheRowsAskedForAndNoOthers() {
        let source = TestImages.distinct(width: 37, height: 9)
        var target = Bitmap(width: 37, height: 9, color: TestImages.untouched)
        target.copyRowsForScanout(from: source, rows: 2..<5)
        target.copyRowsForScanout(from: source, rows: 8..<20)
        for y in 0..<9 {
            for x in 0..<37 {
                let copied = (2..<5).contains(y) || y == 8
                #expect(target[x, y] == (copied ? source[x, y] : TestImages.untouched), "(\(x), \(y))")
            }
        }
    }
}
