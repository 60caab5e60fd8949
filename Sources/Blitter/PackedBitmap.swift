import CBlitterKernels
import Geometry

/// XRGB8888 pixels without their X byte: blue, green, red, 3 bytes a pixel, `width * 3` bytes a
/// row. For a picture read far more often than it is drawn (the grid layer under a transition,
/// dimmed afresh every frame, `Bitmap.blend(_:color:alpha:over:)`): a quarter fewer bytes to read.
/// Padding after the last row lets the 256-bit kernel load whole groups of eight pixels.
public struct PackedBitmap: Sendable {
    public let width: Int
    public let height: Int
    public private(set) var bytes: [UInt8]
    /// Whether a dim reads a packed bitmap faster than the `Bitmap` it was packed from, on this
    /// CPU: where the AVX2 kernel widens the pixels as it reads them. The 128-bit path widens them
    /// into a buffer first, which costs more than the bytes saved (forced on x86-64: a drag's
    /// frame 0.77x of pixman's against 0.62x from the `Bitmap`).
    public static let dimsFaster = Bitmap.wideKernels
    /// Bytes after the last row, where the wide kernel's loads may run (8 at most).
    static let padding = 32

    /// A black picture; a zero or negative size gives an empty one.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        bytes = [UInt8](repeating: 0, count: self.width * self.height * 3 + Self.padding)
    }

    /// `bitmap` packed (its X bytes dropped), at its size.
    public init(packing bitmap: Bitmap) {
        self.init(width: bitmap.width, height: bitmap.height)
        pack(bitmap)
    }

    /// Holds `bitmap`'s pixels from now on, in this storage when the size is the same.
    public mutating func pack(_ bitmap: Bitmap) {
        if bitmap.width != width || bitmap.height != height {
            self = PackedBitmap(width: bitmap.width, height: bitmap.height)
        }
        let width = self.width, stride = bitmap.stride
        bytes.withUnsafeMutableBufferPointer { to in
            bitmap.pixels.withUnsafeBufferPointer { from in
                guard let target = to.baseAddress, let source = from.baseAddress else { return }
                for y in 0..<height { vitrine_pack_pixels(source + y * stride, target + y * width * 3, width) }
            }
        }
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    /// Memory held by the pixels, for caches bounded in bytes.
    public var byteCount: Int { bytes.count }

    /// The pixel at (x, y) as XRGB8888, its X byte 0.
    public subscript(x: Int, y: Int) -> UInt32 {
        let i = (y * width + x) * 3
        return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
    }
}
