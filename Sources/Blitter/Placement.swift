import Geometry

extension Bitmap {
    /// Draws the photo centred so that it covers `frame`, cropping what overflows (a grid cell).
    /// Only pixels inside frame ∩ `clip` are written.
    public mutating func drawAspectFill(_ source: MipChain, in frame: Rect, clip: PixelRect,
                                        quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        guard let crop = Self.aspectFillCrop(of: source.size, in: frame) else { return }
        drawScaled(source, sourceRect: crop, into: frame, clip: clip, quality: quality, alpha: alpha)
    }

    /// `drawAspectFill` from a single bitmap (no mip levels: shrink by at most 2x).
    public mutating func drawAspectFill(_ source: Bitmap, in frame: Rect, clip: PixelRect,
                                        quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        guard let crop = Self.aspectFillCrop(of: source.size, in: frame) else { return }
        drawScaled(source, sourceRect: crop, into: frame, clip: clip, quality: quality, alpha: alpha)
    }

    /// Draws the whole photo as large as fits in `frame`, centred; the letterbox bands are left
    /// untouched.
    public mutating func drawAspectFit(_ source: MipChain, in frame: Rect, clip: PixelRect,
                                       quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        drawScaled(source, sourceRect: Rect(origin: .zero, size: source.size), into: frame.aspectFit(source.size),
                   clip: clip, quality: quality, alpha: alpha)
    }

    /// `drawAspectFit` from a single bitmap (no mip levels: shrink by at most 2x).
    public mutating func drawAspectFit(_ source: Bitmap, in frame: Rect, clip: PixelRect,
                                       quality: ScaleQuality = .bilinear, alpha: Double = 1) {
        drawScaled(source, sourceRect: Rect(origin: .zero, size: source.size), into: frame.aspectFit(source.size),
                   clip: clip, quality: quality, alpha: alpha)
    }

    /// The part of an image of `size` that shows in `frame` when it is scaled to cover it, in
    /// the image's pixels. Drawing just that part into the frame clips to the frame for free.
    static func aspectFillCrop(of size: Size, in frame: Rect) -> Rect? {
        guard size.width > 0, size.height > 0, !frame.isEmpty else { return nil }
        let cover = frame.aspectFill(size)
        let scale = cover.width / size.width
        return Rect(x: (frame.minX - cover.minX) / scale, y: (frame.minY - cover.minY) / scale,
                    width: frame.width / scale, height: frame.height / scale)
    }
}
