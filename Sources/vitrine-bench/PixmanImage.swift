import Blitter
import CPixman
import Geometry

/// A pixman x8r8g8b8 image (the same layout as `Bitmap`) over pixel memory of its own, or over a
/// bitmap's pixels, so the benchmark can run the same operations through pixman on the same memory.
final class PixmanImage {
    let width: Int
    let height: Int
    /// Pixels from the start of one row to the next.
    let stride: Int
    let pixels: UnsafeMutablePointer<UInt32>
    let image: OpaquePointer
    private let storage: Storage

    /// Who keeps `pixels` alive.
    private enum Storage {
        case owned
        /// A view of another image's pixels.
        case view(PixmanImage)
        /// A bitmap's pixels, read only: the stored copy keeps its array buffer alive.
        case bitmap(Bitmap)
        /// The pixels of the bitmap a canvas holds, which the blitter draws into as well.
        case canvas(Canvas)
    }

    convenience init(width: Int, height: Int) {
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, width * height))
        pixels.initialize(repeating: 0, count: max(1, width * height))
        self.init(pixels: pixels, width: width, height: height, stride: width, storage: .owned)
    }

    convenience init(_ bitmap: Bitmap) {
        self.init(width: bitmap.width, height: bitmap.height)
        load(bitmap)
    }

    /// An image over `bitmap`'s own pixels, for pixman to read from (it must not be drawn into).
    convenience init(sharing bitmap: Bitmap) {
        let base = bitmap.pixels.withUnsafeBufferPointer { $0.baseAddress! }
        self.init(pixels: UnsafeMutablePointer(mutating: base), width: bitmap.width, height: bitmap.height,
                  stride: bitmap.stride, storage: .bitmap(bitmap))
    }

    /// An image over the pixels of `canvas.bitmap`, which must already own them alone (drawn into
    /// once), so that drawing into it in place does not move them; `isStillShared` checks that.
    convenience init(sharing canvas: Canvas) {
        let base = canvas.bitmap.pixels.withUnsafeMutableBufferPointer { $0.baseAddress! }
        self.init(pixels: base, width: canvas.bitmap.width, height: canvas.bitmap.height,
                  stride: canvas.bitmap.stride, storage: .canvas(canvas))
    }

    /// `rect` of `parent` as an image of its own, sharing the pixels.
    private convenience init(view rect: PixelRect, of parent: PixmanImage) {
        self.init(pixels: parent.pixels + rect.y * parent.stride + rect.x, width: rect.width, height: rect.height,
                  stride: parent.stride, storage: .view(parent))
    }

    private init(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int, storage: Storage) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.storage = storage
        // pixman needs the bits 4-byte aligned, a stride in bytes that is a multiple of 4, and
        // stride * height bytes: a bitmap's pixels and its stride in words, times 4.
        guard let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(width), Int32(height), pixels,
                                                   Int32(stride * 4)) else {
            fatalError("pixman_image_create_bits(\(width)x\(height), stride \(stride)) failed")
        }
        self.image = image
    }

    /// For an image sharing a canvas: whether the canvas's bitmap still has its pixels where they
    /// were (a copy-on-write would have moved them, and pixman would draw into freed memory).
    var isStillShared: Bool {
        guard case .canvas(let canvas) = storage else { return true }
        return canvas.bitmap.pixels.withUnsafeBufferPointer { $0.baseAddress } == UnsafePointer(pixels)
    }

    deinit {
        pixman_image_unref(image)
        if case .owned = storage { pixels.deallocate() }
    }

    /// The pixels that `sourceRect` touches, as an image: with PIXMAN_REPEAT_PAD it clamps its
    /// samples to them, as the blitter clamps a scaled draw's samples to its source rect.
    /// `sourceRect` is returned in the view's coordinates.
    func view(touchedBy sourceRect: Rect) -> (PixmanImage, Rect) {
        let x0 = max(0, Int(sourceRect.minX.rounded(.down))), y0 = max(0, Int(sourceRect.minY.rounded(.down)))
        let x1 = min(width, Int(sourceRect.maxX.rounded(.up))), y1 = min(height, Int(sourceRect.maxY.rounded(.up)))
        let view = PixmanImage(view: PixelRect(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0)), of: self)
        return (view, sourceRect.offsetBy(dx: -Double(x0), dy: -Double(y0)))
    }

    func load(_ bitmap: Bitmap) {
        for y in 0..<height {
            for x in 0..<width { pixels[y * stride + x] = bitmap[x, y] }
        }
    }

    var bitmap: Bitmap {
        var out = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { out[x, y] = pixels[y * stride + x] }
        }
        return out
    }

    /// Samples with `filter` at source = scale * destination + offset (pixman's transform maps
    /// destination to source), clamping to the edge pixels like the blitter (PIXMAN_REPEAT_PAD).
    func setScaling(sourceRect: Rect, destination: Rect, filter: pixman_filter_t = PIXMAN_FILTER_BILINEAR) {
        let sx = sourceRect.width / destination.width, sy = sourceRect.height / destination.height
        func fixed(_ value: Double) -> pixman_fixed_t { pixman_fixed_t((value * 65536).rounded()) }
        var transform = pixman_transform_t()
        transform.matrix.0 = (fixed(sx), 0, fixed(sourceRect.minX - destination.minX * sx))
        transform.matrix.1 = (0, fixed(sy), fixed(sourceRect.minY - destination.minY * sy))
        transform.matrix.2 = (0, 0, fixed(1))
        pixman_image_set_transform(image, &transform)
        pixman_image_set_filter(image, filter, nil, 0)
        pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD)
    }

    func clearScaling() {
        pixman_image_set_transform(image, nil)
        pixman_image_set_filter(image, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_set_repeat(image, PIXMAN_REPEAT_NONE)
    }

    /// `op` of `source` (through `mask`, if any) onto `rect` of this image; source and mask are
    /// sampled at the destination coordinates (their transforms do the rest).
    func composite(_ op: pixman_op_t, _ source: OpaquePointer, mask: OpaquePointer? = nil, rect: PixelRect) {
        guard let area = Optional(rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))),
              !area.isEmpty else { return }
        pixman_image_composite32(op, source, mask, image, Int32(area.x), Int32(area.y), Int32(area.x), Int32(area.y),
                                 Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
    }

    func composite(_ op: pixman_op_t, _ source: PixmanImage, mask: OpaquePointer? = nil, rect: PixelRect) {
        composite(op, source.image, mask: mask, rect: rect)
    }

    /// pixman_fill: a solid rectangle, pixman's memset-like path.
    func fill(_ rect: PixelRect, color: UInt32) {
        let area = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !area.isEmpty else { return }
        _ = pixman_fill(pixels, Int32(stride), 32, Int32(area.x), Int32(area.y), Int32(area.width),
                        Int32(area.height), color)
    }
}

/// A solid pixman image (16 bits per channel); `alpha` in 0...1.
final class PixmanSolid {
    let image: OpaquePointer

    init(color: UInt32 = 0, alpha: Double) {
        func wide(_ byte: UInt32) -> UInt16 { UInt16(byte & 0xFF) * 0x101 }
        var c = pixman_color_t(red: wide(color >> 16), green: wide(color >> 8), blue: wide(color),
                               alpha: UInt16((alpha * 65535).rounded()))
        guard let image = pixman_image_create_solid_fill(&c) else { fatalError("pixman_image_create_solid_fill failed") }
        self.image = image
    }

    deinit { pixman_image_unref(image) }
}

extension Rect {
    /// The pixels whose centres lie inside: what the blitter writes for a scaled draw.
    var centredPixels: PixelRect {
        let x0 = Int((minX - 0.5).rounded(.up)), x1 = Int((maxX - 0.5).rounded(.up))
        let y0 = Int((minY - 0.5).rounded(.up)), y1 = Int((maxY - 0.5).rounded(.up))
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
