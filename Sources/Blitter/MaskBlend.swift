import Geometry

extension Bitmap {
    /// `color` laid over the pixels through `mask`, whose top-left corner lies at `origin`: each
    /// pixel's weight is its coverage times `alpha`, rounded to 256ths. Clipped to `clip` and to
    /// the bitmap. Four pixels at a time; groups of four with no coverage (most of a text's box)
    /// are skipped with one load.
    public mutating func blend(_ color: UInt32, through mask: AlphaMask, at origin: (x: Int, y: Int), alpha: Double,
                               clip: PixelRect) {
        let level = PixelMath.alphaWeight(alpha)
        let area = PixelRect(x: origin.x, y: origin.y, width: mask.width, height: mask.height)
            .intersection(bounds).intersection(clip)
        guard level > 0, !area.isEmpty else { return }
        let source = unsafeBitCast(SIMD4<UInt32>(repeating: color & 0x00FF_FFFF), to: Lanes.self)
        let plainColor = color & 0x00FF_FFFF
        let stride = self.stride, maskWidth = mask.width, count = area.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            mask.coverage.withUnsafeBufferPointer { coverage in
                guard let base = buffer.baseAddress, let maskBase = coverage.baseAddress else { return }
                for y in area.minY..<area.maxY {
                    let row = base + y * stride + area.minX
                    let maskRow = maskBase + (y - origin.y) * maskWidth + (area.minX - origin.x)
                    var x = 0
                    while x &+ 4 <= count {
                        let four = UnsafeRawPointer(maskRow + x).loadUnaligned(as: UInt32.self)
                        if four != 0 {
                            let w0 = Self.weight(maskRow[x], level), w1 = Self.weight(maskRow[x &+ 1], level)
                            let w2 = Self.weight(maskRow[x &+ 2], level), w3 = Self.weight(maskRow[x &+ 3], level)
                            let alphaLanes = Lanes(w0, w0, w1, w1, w2, w2, w3, w3)
                            let inverse = Lanes(repeating: UInt16(PixelMath.opaque)) &- alphaLanes
                            PixelVector.storePixels(PixelVector.blend(source, over: PixelVector.load(row + x),
                                                                      alpha: alphaLanes, inverse: inverse), to: row + x)
                        }
                        x &+= 4
                    }
                    while x < count {
                        let w = UInt64(Self.weight(maskRow[x], level))
                        if w > 0 { row[x] = PixelMath.blend(plainColor, over: row[x], alpha: w) }
                        x &+= 1
                    }
                }
            }
        }
    }

    /// Coverage 0...255 as 0...256 (255 covers), times a weight in 256ths.
    @inline(__always)
    static func weight(_ coverage: UInt8, _ level: Int) -> UInt16 {
        let c = Int(coverage) &+ Int(coverage >> 7)
        return UInt16(truncatingIfNeeded: (c &* level &+ 128) >> 8)
    }

    /// The plain per-pixel form of the mask blend, the definition the vector loop is tested against.
    static func referenceMaskBlend(_ color: UInt32, over destination: UInt32, coverage: UInt8, alpha: Double) -> UInt32 {
        PixelMath.referenceBlend(color, over: destination, alpha: Int(weight(coverage, PixelMath.alphaWeight(alpha))))
    }
}
