import Blitter
import Geometry

public enum TestImages {
    public static let red = Pixel.rgb(255, 0, 0)
    public static let green = Pixel.rgb(0, 255, 0)
    public static let blue = Pixel.rgb(0, 0, 255)
    public static let yellow = Pixel.rgb(255, 255, 0)
    /// A colour no drawing in these tests produces, to spot pixels that were written.
    public static let untouched = Pixel.rgb(1, 2, 3)

    public static func random(width: Int, height: Int, stride: Int? = nil, using rng: inout SplitMix64) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, stride: stride)
        for i in bitmap.pixels.indices { bitmap.pixels[i] = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF }
        return bitmap
    }

    /// Gradients and speckle under a random tint, so a misplaced or wrongly blended pixel shows.
    public static func structured(width: Int, height: Int, using rng: inout SplitMix64) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        let tint = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / max(1, width - 1)), g = UInt32(y * 255 / max(1, height - 1))
                bitmap[x, y] = (r << 16 | g << 8 | UInt32(rng.next() & 0x3F)) ^ tint
            }
        }
        return bitmap
    }

    /// Every pixel a different colour.
    public static func distinct(width: Int, height: Int) -> Bitmap {
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
    public static func cornerBlocks(size: Int, block: Int, using rng: inout SplitMix64) -> Bitmap {
        var bitmap = random(width: size, height: size, using: &rng)
        let corners: [(Int, Int, UInt32)] = [(0, 0, red), (size - block, 0, green),
                                             (0, size - block, blue), (size - block, size - block, yellow)]
        for (x, y, color) in corners {
            bitmap.fill(PixelRect(x: x, y: y, width: block, height: block), color: color)
        }
        return bitmap
    }

    public static func checkerboard(size: Int) -> Bitmap {
        var bitmap = Bitmap(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size where (x + y) % 2 == 1 { bitmap[x, y] = Pixel.white }
        }
        return bitmap
    }

    /// Left half red, right half blue.
    public static func redBlue(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, color: red)
        bitmap.fill(PixelRect(x: width / 2, y: 0, width: width - width / 2, height: height), color: blue)
        return bitmap
    }

    public static func corners(of bitmap: Bitmap) -> [UInt32] {
        [bitmap[0, 0], bitmap[bitmap.width - 1, 0], bitmap[0, bitmap.height - 1], bitmap[bitmap.width - 1, bitmap.height - 1]]
    }

    /// The largest difference of any channel between two pixels.
    public static func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        [16, 8, 0].map { abs(Int(a >> $0 & 0xFF) - Int(b >> $0 & 0xFF)) }.max() ?? 0
    }

    /// The same scaled draw over `background` by the fast path and by the reference: the fast
    /// path's picture and its largest channel difference from the reference's.
    public static func scaledAgainstReference(_ source: Bitmap, sourceRect: Rect, into destination: Rect, over background: Bitmap,
                                       clip: PixelRect? = nil, quality: ScaleQuality = .bilinear,
                                       alpha: Double) -> (fast: Bitmap, worst: Int) {
        var fast = background, reference = background
        fast.drawScaled(source, sourceRect: sourceRect, into: destination, clip: clip ?? background.bounds,
                        quality: quality, alpha: alpha)
        reference.drawScaledReference(source, sourceRect: sourceRect, into: destination, clip: clip ?? background.bounds,
                                      quality: quality, alpha: alpha)
        return (fast, zip(fast.pixels, reference.pixels).map { channelDifference($0, $1) }.max() ?? 0)
    }

    public static func channels(_ p: UInt32) -> [Int] { [Int(Pixel.red(p)), Int(Pixel.green(p)), Int(Pixel.blue(p))] }
}
