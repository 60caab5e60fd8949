import Geometry

/// An image and successively half-sized copies of it (each pixel the average of a 2x2 block),
/// down to 1x1. Built once per decoded image; costs a third more memory, and lets `drawScaled`
/// shrink by any factor without aliasing by starting from the level just larger than the target.
public struct MipChain: Sendable {
    /// `levels[0]` is the image itself; each next one has half its width and height (rounded
    /// down, at least 1).
    public let levels: [Bitmap]

    public init(_ image: Bitmap) {
        var levels = [image]
        while let last = levels.last, !last.isEmpty, last.width > 1 || last.height > 1 {
            levels.append(last.halved())
        }
        self.levels = levels
    }

    /// The image alone, without smaller levels: for one always drawn near its own size (a grid
    /// thumbnail), where levels would cost memory and never be used.
    public static func single(_ image: Bitmap) -> MipChain {
        MipChain(levels: [image])
    }

    private init(levels: [Bitmap]) {
        self.levels = levels
    }

    /// The full-size image.
    public var image: Bitmap { levels[0] }
    public var width: Int { image.width }
    public var height: Int { image.height }
    public var size: Size { image.size }
    /// Memory held by all levels, for caches bounded in bytes.
    public var byteCount: Int { levels.reduce(0) { $0 + $1.byteCount } }

    /// The smallest level that still has at least one source pixel per destination pixel, for
    /// drawing `sourceRect` of the image into `destination`; and `sourceRect` in its pixels.
    func level(for sourceRect: Rect, into destination: Rect) -> (bitmap: Bitmap, sourceRect: Rect) {
        let image = self.image
        var chosen = 0
        while chosen + 1 < levels.count {
            let next = levels[chosen + 1]
            let scaleX = sourceRect.width * Double(next.width) / Double(image.width) / destination.width
            let scaleY = sourceRect.height * Double(next.height) / Double(image.height) / destination.height
            guard min(scaleX, scaleY) >= 1 else { break }
            chosen += 1
        }
        let level = levels[chosen]
        if chosen == 0 { return (level, sourceRect) }
        let kx = Double(level.width) / Double(image.width), ky = Double(level.height) / Double(image.height)
        return (level, Rect(x: sourceRect.x * kx, y: sourceRect.y * ky,
                            width: sourceRect.width * kx, height: sourceRect.height * ky))
    }
}

extension Bitmap {
    /// Half the size, each pixel the rounded average of a 2x2 block (a lone last row or column of
    /// an odd size is dropped; a side of 1 stays 1).
    func halved() -> Bitmap {
        var out = Bitmap(width: Swift.max(1, width / 2), height: Swift.max(1, height / 2))
        let outStride = out.stride, sourceStride = stride, maxX = width - 1, maxY = height - 1
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                for y in 0..<out.height {
                    let top = sourceBase + 2 * y * sourceStride
                    let bottom = sourceBase + Swift.min(2 * y + 1, maxY) * sourceStride
                    let row = base + y * outStride
                    for x in 0..<out.width {
                        let x0 = 2 * x, x1 = Swift.min(2 * x + 1, maxX)
                        // Four pixels' channels in 16-bit lanes: at most 4 * 255, no carries.
                        let sum = PixelMath.lanes(top[x0]) &+ PixelMath.lanes(top[x1])
                            &+ PixelMath.lanes(bottom[x0]) &+ PixelMath.lanes(bottom[x1]) &+ 0x0002_0002_0002
                        let q = (sum >> 2) & 0x00FF_00FF_00FF
                        row[x] = UInt32(truncatingIfNeeded: (q & 0xFF) | (q >> 8) & 0xFF00 | (q >> 16) & 0xFF_0000)
                    }
                }
            }
        }
        return out
    }

    /// `drawScaled` from the mip level that suits the scale, so shrinking by more than 2x
    /// averages every source pixel instead of skipping most of them. `sourceRect` is in the
    /// full-size image's pixels.
    public mutating func drawScaled(_ source: MipChain, sourceRect: Rect, into destination: Rect, clip: PixelRect,
                                    quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        guard !source.image.isEmpty, !sourceRect.isEmpty, !destination.isEmpty else { return }
        let level = source.level(for: sourceRect, into: destination)
        drawScaled(level.bitmap, sourceRect: level.sourceRect, into: destination, clip: clip,
                   quality: quality, alpha: alpha)
    }
}
