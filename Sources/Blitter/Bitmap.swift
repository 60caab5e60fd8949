import Geometry

/// Pixels in XRGB8888 (0x00RRGGBB in a native-endian UInt32, the DRM_FORMAT_XRGB8888 layout on
/// little-endian machines), `stride` pixels per row. Every drawing operation lives in an extension
/// of this type in the Blitter module; the storage is copy-on-write like any Swift array.
public struct Bitmap: Sendable {
    public let width: Int
    public let height: Int
    /// Pixels from the start of one row to the start of the next (>= width).
    public let stride: Int
    public var pixels: [UInt32]

    /// A bitmap filled with one colour. A zero or negative size gives an empty bitmap.
    public init(width: Int, height: Int, stride: Int? = nil, color: UInt32 = Pixel.black) {
        let w = max(0, width), h = max(0, height)
        self.width = w
        self.height = h
        self.stride = max(w, stride ?? w)
        self.pixels = [UInt32](repeating: color, count: self.stride * h)
    }

    /// Wraps existing pixels; `pixels.count` must be at least `stride * height`.
    public init(width: Int, height: Int, stride: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0 && stride >= width && pixels.count >= stride * height,
                     "Bitmap(\(width)x\(height), stride \(stride)) needs \(stride * height) pixels, has \(pixels.count)")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    public var size: Size { Size(width: width, height: height) }
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// Memory held by the pixels, for caches bounded in bytes.
    public var byteCount: Int { pixels.count * MemoryLayout<UInt32>.stride }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * stride + x] }
        set { pixels[y * stride + x] = newValue }
    }
}

/// XRGB8888 pixel helpers.
public enum Pixel {
    public static let black: UInt32 = 0x00_00_00_00
    public static let white: UInt32 = 0x00_FF_FF_FF

    @inline(__always)
    public static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    @inline(__always) public static func red(_ p: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: p >> 16) }
    @inline(__always) public static func green(_ p: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: p >> 8) }
    @inline(__always) public static func blue(_ p: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: p) }
}
