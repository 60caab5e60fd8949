import Testing
import Blitter
import Geometry
import TestSupport

@Suite struct RowWriterTests {
    @Test func copiesTheRowsIntoAPitchedBufferAndNothingElse() {
        var rng = SplitMix64(seed: 9)
        let bitmap = TestImages.random(width: 5, height: 6, stride: 7, using: &rng)
        let pitch = 5 * 4 + 12
        var buffer = [UInt8](repeating: 0xAB, count: pitch * 6)
        buffer.withUnsafeMutableBytes { raw in
            bitmap.copyRows(2..<4, to: raw.baseAddress!, destinationPitch: pitch)
        }
        for y in 0..<6 {
            for byte in 0..<pitch {
                let value = buffer[y * pitch + byte]
                if (2..<4).contains(y) && byte < 20 {
                    let pixel = bitmap[byte / 4, y]
                    #expect(value == UInt8(truncatingIfNeeded: pixel >> (8 * UInt32(byte % 4))), "row \(y) byte \(byte)")
                } else {
                    #expect(value == 0xAB, "row \(y) byte \(byte)")
                }
            }
        }
    }

    @Test func rowsOutsideTheBitmapAreIgnored() {
        let bitmap = Bitmap(width: 3, height: 2, color: Pixel.white)
        var buffer = [UInt8](repeating: 0, count: 12 * 2)
        buffer.withUnsafeMutableBytes { raw in
            bitmap.copyRows(-5..<50, to: raw.baseAddress!, destinationPitch: 12)
        }
        #expect(buffer.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 0 : $0.element == 0xFF })
    }
}
