import Blitter
import Geometry

/// A small deterministic generator, so random tests fail the same way every time.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum TestImages {
    static let red = Pixel.rgb(255, 0, 0)
    static let green = Pixel.rgb(0, 255, 0)
    static let blue = Pixel.rgb(0, 0, 255)
    static let yellow = Pixel.rgb(255, 255, 0)
    /// A colour no drawing in these tests produces, to spot pixels that were written.
    static let untouched = Pixel.rgb(1, 2, 3)

    static func random(width: Int, height: Int, stride: Int? = nil, using rng: inout SplitMix64) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, stride: stride)
        for i in bitmap.pixels.indices { bitmap.pixels[i] = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF }
        return bitmap
    }

    /// Every pixel a different colour.
    static func distinct(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = Pixel.rgb(UInt8(truncatingIfNeeded: x * 37 + 11), UInt8(truncatingIfNeeded: y * 53 + 7),
                                         UInt8(truncatingIfNeeded: x * 13 + y * 29 + 101))
            }
        }
        return bitmap
    }

    /// Random noise with a solid `block`-sized square of a different colour in each corner.
    static func cornerBlocks(size: Int, block: Int, using rng: inout SplitMix64) -> Bitmap {
        var bitmap = random(width: size, height: size, using: &rng)
        let corners: [(Int, Int, UInt32)] = [(0, 0, red), (size - block, 0, green),
                                             (0, size - block, blue), (size - block, size - block, yellow)]
        for (x, y, color) in corners {
            bitmap.fill(PixelRect(x: x, y: y, width: block, height: block), color: color)
        }
        return bitmap
    }

    static func checkerboard(size: Int) -> Bitmap {
        var bitmap = Bitmap(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size where (x + y) % 2 == 1 { bitmap[x, y] = Pixel.white }
        }
        return bitmap
    }

    /// Left half red, right half blue.
    static func redBlue(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, color: red)
        bitmap.fill(PixelRect(x: width / 2, y: 0, width: width - width / 2, height: height), color: blue)
        return bitmap
    }

    static func corners(of bitmap: Bitmap) -> [UInt32] {
        [bitmap[0, 0], bitmap[bitmap.width - 1, 0], bitmap[0, bitmap.height - 1], bitmap[bitmap.width - 1, bitmap.height - 1]]
    }

    /// The largest difference of any channel between two pixels.
    static func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        [16, 8, 0].map { abs(Int(a >> $0 & 0xFF) - Int(b >> $0 & 0xFF)) }.max() ?? 0
    }

    /// The same scaled draw over `background` by the fast path and by the reference: the fast
    /// path's picture and its largest channel difference from the reference's.
    static func scaledAgainstReference(_ source: Bitmap, sourceRect: Rect, into destination: Rect, over background: Bitmap,
                                       clip: PixelRect? = nil, quality: ScaleQuality = .bilinear,
                                       alpha: Double) -> (fast: Bitmap, worst: Int) {
        var fast = background, reference = background
        fast.drawScaled(source, sourceRect: sourceRect, into: destination, clip: clip ?? background.bounds,
                        quality: quality, alpha: alpha)
        reference.drawScaledReference(source, sourceRect: sourceRect, into: destination, clip: clip ?? background.bounds,
                                      quality: quality, alpha: alpha)
        return (fast, zip(fast.pixels, reference.pixels).map { channelDifference($0, $1) }.max() ?? 0)
    }

    static func channels(_ p: UInt32) -> [Int] { [Int(Pixel.red(p)), Int(Pixel.green(p)), Int(Pixel.blue(p))] }
}
