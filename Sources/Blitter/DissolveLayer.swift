import Geometry

/// One picture of a dissolve (`Dissolve`): an image aspect-filled into `rect` and clipped to it (a
/// slide's page, whose rect has the image's aspect ratio, shows whole), or a plain colour over the
/// rect (a photo not decoded yet), weighed by `alpha`.
public struct DissolveLayer {
    enum Content {
        case image(MipChain)
        case bitmap(Bitmap)
        case color(UInt32)
    }

    let content: Content
    public let rect: Rect
    public let alpha: Double

    /// The image from its mip level that suits the scale, as `drawAspectFill` draws it.
    public static func image(_ image: MipChain, in rect: Rect, alpha: Double) -> DissolveLayer {
        DissolveLayer(content: .image(image), rect: rect, alpha: alpha)
    }

    /// A single bitmap (a thumbnail), as `drawAspectFill` draws it.
    public static func image(_ image: Bitmap, in rect: Rect, alpha: Double) -> DissolveLayer {
        DissolveLayer(content: .bitmap(image), rect: rect, alpha: alpha)
    }

    /// `color` over every pixel the rect touches, as `blend(_:color:alpha:)` fills it.
    public static func color(_ color: UInt32, in rect: Rect, alpha: Double) -> DissolveLayer {
        DissolveLayer(content: .color(color), rect: rect, alpha: alpha)
    }

    /// The pixels of `clip` it gives a value: for an image those whose centres lie inside the
    /// rect (the pixels a scaled draw writes), for a colour every pixel the rect touches. Empty
    /// for an empty image or a rect that is not finite.
    public func pixels(within clip: PixelRect) -> PixelRect {
        let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)
        guard [rect.minX, rect.minY, rect.maxX, rect.maxY].allSatisfy(\.isFinite), !rect.isEmpty else { return empty }
        switch content {
        case .image(let chain) where chain.image.isEmpty: return empty
        case .bitmap(let bitmap) where bitmap.isEmpty: return empty
        case .image, .bitmap:
            let x0 = Int(pixel: (rect.minX - 0.5).rounded(.up)), x1 = Int(pixel: (rect.maxX - 0.5).rounded(.up))
            let y0 = Int(pixel: (rect.minY - 0.5).rounded(.up)), y1 = Int(pixel: (rect.maxY - 0.5).rounded(.up))
            return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0)).intersection(clip)
        case .color:
            return rect.enclosingPixels.intersection(clip)
        }
    }

    /// Where its pixels come from: the bitmap and source rect a scaled draw reads (the mip level
    /// and the aspect-fill crop in its pixels), or the colour.
    enum Source {
        /// Drawn 1:1 at whole pixels: pixel (x, y) is the bitmap's (x - x0, y - y0).
        case rows(Bitmap, x0: Int, y0: Int)
        case scaled(Bitmap, sourceRect: Rect)
        case color(UInt32)
    }

    var source: Source? {
        let bitmap: Bitmap, crop: Rect
        switch content {
        case .color(let color): return .color(color)
        case .image(let chain):
            guard let fill = Bitmap.aspectFillCrop(of: chain.size, in: rect) else { return nil }
            (bitmap, crop) = chain.level(for: fill, into: rect)
        case .bitmap(let image):
            guard let fill = Bitmap.aspectFillCrop(of: image.size, in: rect) else { return nil }
            (bitmap, crop) = (image, fill)
        }
        // At the image's own size on whole pixels the scaled draw samples pixel centres exactly
        // (its 16.16 positions absorb a crop off by far less than 1/65536): a copy of rows.
        let tolerance = 1e-9
        if Double(bitmap.width) == rect.width, Double(bitmap.height) == rect.height,
           rect.minX == rect.minX.rounded(), rect.minY == rect.minY.rounded(),
           abs(crop.minX) < tolerance, abs(crop.minY) < tolerance,
           abs(crop.width - rect.width) < tolerance, abs(crop.height - rect.height) < tolerance {
            return .rows(bitmap, x0: Int(pixel: rect.minX), y0: Int(pixel: rect.minY))
        }
        return .scaled(bitmap, sourceRect: crop)
    }
}
