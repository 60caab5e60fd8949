import Testing
@testable import Blitter
import Geometry
import TestSupport

@Suite struct PackedBitmapTests {
    /// Packing keeps blue, green and red of every pixel and nothing else, whatever the X byte and
    /// the source's stride, and writes nothing past the last; packing another size takes that size.
    @Test func packingKeepsTheColourOfEveryPixelAndDropsTheXByte() {
        var rng = SplitMix64(seed: 41)
        var source = TestImages.random(width: 23, height: 7, stride: 29, using: &rng)
        for i in source.pixels.indices { source.pixels[i] |= UInt32(truncatingIfNeeded: rng.next()) & 0xFF00_0000 }
        var packed = PackedBitmap(width: 5, height: 5)
        packed.pack(source)
        #expect(packed.width == 23 && packed.height == 7)
        for y in 0..<7 {
            for x in 0..<23 { #expect(packed[x, y] == source[x, y] & 0x00FF_FFFF, "(\(x), \(y))") }
        }
        // Nothing written past the last pixel (where the wide kernel's loads may run).
        #expect(packed.bytes[(23 * 7 * 3)...].allSatisfy { $0 == 0 })
    }

    /// The dim from a packed layer gives what it gives from the layer itself (whose X bytes are
    /// 0, as every picture's are): at alpha 0 (a copy), 1 (the colour), and between, in rects
    /// partly outside either, whose widths leave any remainder after the kernel's groups of 16;
    /// through the wide kernel and the portable path.
    @Test func blendOverAPackedLayerIsBlendOverTheLayer() {
        var rng = SplitMix64(seed: 43)
        let layer = TestImages.random(width: 97, height: 21, using: &rng)
        let packed = PackedBitmap(packing: layer)
        let start = TestImages.random(width: 101, height: 23, stride: 104, using: &rng)
        let paths = Bitmap.wideKernels ? [false, true] : [false]
        for round in 0..<80 {
            let rect = PixelRect(x: Int.random(in: -5...60, using: &rng), y: Int.random(in: -5...18, using: &rng),
                                 width: Int.random(in: 0...110, using: &rng), height: Int.random(in: 0...26, using: &rng))
            let color = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            let alpha = [0, 1, 0.6, Double.random(in: 0...1, using: &rng)][round % 4]
            var expected = start
            expected.blend(rect, color: color, alpha: alpha, over: layer, wide: false)
            for wide in paths {
                var fromPacked = start
                fromPacked.blend(rect, color: color, alpha: alpha, over: packed, wide: wide)
                let wrong = fromPacked.pixels.indices.first { fromPacked.pixels[$0] != expected.pixels[$0] }
                #expect(wrong == nil, "round \(round), \(rect), alpha \(alpha), wide \(wide): pixel \(wrong ?? 0)")
            }
        }
    }
}
