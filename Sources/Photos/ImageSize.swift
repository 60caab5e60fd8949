/// A size in whole pixels: stored and oriented JPEG sizes, decode targets, cache keys.
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// Saturates at Int.max: a size may come from a file's header.
    public var pixelCount: Int {
        let (count, overflow) = max(0, width).multipliedReportingOverflow(by: max(0, height))
        return overflow ? .max : count
    }
    /// The same size with width and height exchanged (a quarter turn).
    public var transposed: ImageSize { ImageSize(width: height, height: width) }

    /// The smallest size of this aspect ratio that covers `box` (aspect-fill, as a grid cell shows
    /// its thumbnail): one side equals the box, the other is at least as long.
    /// Unbounded (a strip's fill is enormous): decode targets come from `decodeTarget`.
    public func filling(_ box: ImageSize) -> ImageSize {
        guard !isEmpty, !box.isEmpty else { return ImageSize(width: max(1, box.width), height: max(1, box.height)) }
        let scale = max(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return ImageSize(width: max(box.width, Self.clamped(Double(width) * scale)),
                         height: max(box.height, Self.clamped(Double(height) * scale)))
    }

    /// The largest size of this aspect ratio that fits in `box` (aspect-fit, as the pager shows a
    /// photo): one side equals the box, the other is at most as long, and never below 1.
    public func fitting(in box: ImageSize) -> ImageSize {
        guard !isEmpty, !box.isEmpty else { return ImageSize(width: max(1, box.width), height: max(1, box.height)) }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return ImageSize(width: max(1, min(box.width, Self.clamped(Double(width) * scale))),
                         height: max(1, min(box.height, Self.clamped(Double(height) * scale))))
    }

    /// A length rounded to whole pixels that cannot trap however large it is.
    private static func clamped(_ length: Double) -> Int {
        Int(min(length.rounded(), Double(Int32.max)))
    }

    /// What a decoded image is for, and so how large it may be (SPEC §4).
    public enum Use: Sendable {
        /// A grid cell's thumbnail: aspect-fill of the cell, at most twice the cell's side either
        /// way (a panorama's is its centred crop: `thumbnailDecodeSize`).
        case thumbnail(cellSide: Int)
        /// The pager's full-screen image: aspect-fit of the screen, at most the screen at `maxZoom`.
        case screen(ImageSize, maxZoom: Double)
    }

    /// The one computation of a decode target from a photo's size (which comes from its file):
    /// the size its use shows it at, bounded before anything is allocated. Whatever the aspect
    /// ratio, the target stays within the bound and keeps the photo's shape, so a 65500x1 strip is
    /// a thin line (a thumbnail of 640x1), never the 20960000x320 that filling a cell would ask
    /// for. Every side is at least 1. A thumbnail's is the size it is kept at: the centred crop of
    /// `thumbnailDecodeSize`, the same size up to 2:1.
    public func decodeTarget(_ use: Use) -> ImageSize {
        let wanted: ImageSize, limit: ImageSize
        switch use {
        case let .thumbnail(side):
            // The centred crop of the decode, whose short side covers the cell up to 16:1.
            let decoded = thumbnailDecodeSize(cellSide: side), longest = 2 * Self.cellSide(side)
            return ImageSize(width: min(decoded.width, longest), height: min(decoded.height, longest))
        case let .screen(screen, maxZoom):
            wanted = fitting(in: screen)
            let zoom = maxZoom.isFinite ? min(max(1, maxZoom), 16) : 1
            limit = ImageSize(width: max(1, Int(Double(screen.width) * zoom)), height: max(1, Int(Double(screen.height) * zoom)))
        }
        guard wanted.width > limit.width || wanted.height > limit.height else { return wanted }
        return wanted.fitting(in: limit)
    }

    /// The size a thumbnail is decoded at before its centred crop to `decodeTarget(.thumbnail)`:
    /// the aspect-fill of the cell, so that a panorama's crop is as sharp as any thumbnail (its
    /// short side covers the cell) rather than the whole panorama shrunk to twice the cell's side.
    /// Bounded by 16 cells either way (memory held only while the decode runs): up to 16:1 the
    /// short side covers the cell; a longer strip is a thin line, as before.
    public func thumbnailDecodeSize(cellSide side: Int) -> ImageSize {
        let side = Self.cellSide(side)
        let wanted = filling(ImageSize(width: side, height: side)), limit = ImageSize(width: 16 * side, height: 16 * side)
        guard wanted.width > limit.width || wanted.height > limit.height else { return wanted }
        return wanted.fitting(in: limit)
    }

    /// A cell's side from the layout, at least 1 and far below where 16 of it could overflow.
    private static func cellSide(_ side: Int) -> Int { min(max(1, side), 1 << 20) }

    public var description: String { "\(width)x\(height)" }
}
