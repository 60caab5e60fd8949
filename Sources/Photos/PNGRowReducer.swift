import Blitter

/// Takes a PNG's 8-bit RGBA rows one at a time, composes them over black (premultiplies) and
/// averages each `factor` x `factor` box into one XRGB8888 pixel (zero X byte), as TurboJPEG's
/// scaling factors do for a JPEG: a 12 MP PNG for a 1080p screen is never held at full size, only
/// its reduction (which the resampler then brings to the exact target) and one row of sums.
struct PNGRowReducer {
    /// The sums' bytes for each input column (at most one output column per input column).
    static let sumBytesPerColumn = 3 * MemoryLayout<UInt32>.stride

    let width: Int, height: Int, factor: Int
    let outputSize: ImageSize
    private(set) var pixels: [UInt32]
    private var sums: [UInt32]
    private var row = 0

    /// The largest whole factor whose reduction of `image` still covers `target` in both axes;
    /// 1 when the target is not smaller. At most 256, so a box's sums fit in 32 bits.
    static func factor(reducing image: ImageSize, toCover target: ImageSize) -> Int {
        guard !image.isEmpty, !target.isEmpty else { return 1 }
        var factor = min(256, max(1, min(image.width / target.width, image.height / target.height)))
        while factor > 1, ScalingFactor(num: 1, denom: factor).scale(image).width < target.width
            || ScalingFactor(num: 1, denom: factor).scale(image).height < target.height {
            factor -= 1
        }
        return factor
    }

    /// `width` x `height` must be a size the limits allowed (the header was checked).
    init(width: Int, height: Int, factor: Int) {
        self.width = width
        self.height = height
        self.factor = max(1, factor)
        outputSize = ScalingFactor(num: 1, denom: self.factor).scale(ImageSize(width: width, height: height))
        pixels = [UInt32](repeating: 0, count: outputSize.pixelCount)
        sums = self.factor == 1 ? [] : [UInt32](repeating: 0, count: outputSize.width * 3)
    }

    /// The next row: `width` RGBA pixels (4 bytes each).
    mutating func add(_ rgba: UnsafeRawBufferPointer) {
        guard row < height, rgba.count >= width * 4 else { return }
        let bytes = rgba.bindMemory(to: UInt8.self)
        if factor == 1 {
            pixels.withUnsafeMutableBufferPointer { out in
                let start = row * width
                for x in 0..<width {
                    let a = UInt32(bytes[4 * x + 3])
                    out[start + x] = Self.over(bytes[4 * x], a) << 16 | Self.over(bytes[4 * x + 1], a) << 8 | Self.over(bytes[4 * x + 2], a)
                }
            }
            row += 1
            return
        }
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<width {
                let a = UInt32(bytes[4 * x + 3]), column = 3 * (x / factor)
                sums[column] &+= Self.over(bytes[4 * x], a)
                sums[column + 1] &+= Self.over(bytes[4 * x + 1], a)
                sums[column + 2] &+= Self.over(bytes[4 * x + 2], a)
            }
        }
        row += 1
        if row % factor == 0 || row == height { emitBoxRow() }
    }

    /// One output row from the sums of the rows since the last one (fewer at the bottom edge, as
    /// the last column's boxes are narrower at the right).
    private mutating func emitBoxRow() {
        let boxHeight = (row - 1) % factor + 1
        let outY = (row - 1) / factor
        let outWidth = outputSize.width, factor = factor, width = width
        pixels.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { sums in
                for ox in 0..<outWidth {
                    let count = UInt32(min(factor, width - ox * factor) * boxHeight)
                    func mean(_ i: Int) -> UInt32 { (sums[i] + count / 2) / count }
                    out[outY * outWidth + ox] = mean(3 * ox) << 16 | mean(3 * ox + 1) << 8 | mean(3 * ox + 2)
                    sums[3 * ox] = 0; sums[3 * ox + 1] = 0; sums[3 * ox + 2] = 0
                }
            }
        }
    }

    /// A channel composed over black: value x alpha / 255, rounded.
    @inline(__always)
    static func over(_ value: UInt8, _ alpha: UInt32) -> UInt32 {
        (UInt32(value) * alpha + 127) / 255
    }

    /// The reduction, once every row was added (rows never added stay black).
    var bitmap: Bitmap {
        Bitmap(width: outputSize.width, height: outputSize.height, stride: outputSize.width, pixels: pixels)
    }
}
