import Blitter

/// EXIF orientation (tag 0x0112): how the stored pixels must be turned to show the picture upright.
/// Orientations 5-8 swap width and height.
public enum Orientation: Int, Sendable, CaseIterable {
    case normal = 1
    case flipHorizontal = 2
    case rotate180 = 3
    case flipVertical = 4
    /// Mirrored along the top-left to bottom-right diagonal.
    case transpose = 5
    /// Turned 90 degrees clockwise to display.
    case rotate90 = 6
    /// Mirrored along the top-right to bottom-left diagonal.
    case transverse = 7
    /// Turned 90 degrees counter-clockwise to display.
    case rotate270 = 8

    /// The EXIF value, with anything outside 1...8 (0 is common) read as "normal", as viewers do.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .normal
    }

    public var swapsAxes: Bool { rawValue >= 5 }

    /// The displayed size of an image stored at `stored`.
    public func orientedSize(_ stored: ImageSize) -> ImageSize {
        swapsAxes ? stored.transposed : stored
    }

    /// The stored size that displays as `oriented`.
    public func storedSize(_ oriented: ImageSize) -> ImageSize {
        swapsAxes ? oriented.transposed : oriented
    }

    /// The stored pixel shown at displayed position (x, y), for a stored image of `stored` size.
    @inline(__always)
    func storedPosition(x: Int, y: Int, stored: ImageSize) -> (x: Int, y: Int) {
        let w = stored.width, h = stored.height
        switch self {
        case .normal: return (x, y)
        case .flipHorizontal: return (w - 1 - x, y)
        case .rotate180: return (w - 1 - x, h - 1 - y)
        case .flipVertical: return (x, h - 1 - y)
        case .transpose: return (y, x)
        case .rotate90: return (y, h - 1 - x)
        case .transverse: return (w - 1 - y, h - 1 - x)
        case .rotate270: return (w - 1 - y, x)
        }
    }

    /// The bitmap turned upright: a new bitmap of the oriented size (the same one for `.normal`).
    public func apply(to bitmap: Bitmap) -> Bitmap {
        guard self != .normal, !bitmap.isEmpty else { return bitmap }
        let stored = ImageSize(width: bitmap.width, height: bitmap.height)
        let size = orientedSize(stored)
        var out = [UInt32](repeating: 0, count: size.width * size.height)
        bitmap.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<size.height {
                    let row = y * size.width
                    for x in 0..<size.width {
                        let p = storedPosition(x: x, y: y, stored: stored)
                        dst[row + x] = src[p.y * bitmap.stride + p.x]
                    }
                }
            }
        }
        return Bitmap(width: size.width, height: size.height, stride: size.width, pixels: out)
    }
}
