/// A size in whole pixels: stored and oriented JPEG sizes, decode targets, cache keys.
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var pixelCount: Int { max(0, width) * max(0, height) }
    /// The same size with width and height exchanged (a quarter turn).
    public var transposed: ImageSize { ImageSize(width: height, height: width) }

    /// The smallest size of this aspect ratio that covers `box` (aspect-fill, as a grid cell shows
    /// its thumbnail): one side equals the box, the other is at least as long.
    public func filling(_ box: ImageSize) -> ImageSize {
        guard !isEmpty, !box.isEmpty else { return ImageSize(width: max(1, box.width), height: max(1, box.height)) }
        let scale = max(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return ImageSize(width: max(box.width, Int((Double(width) * scale).rounded())),
                         height: max(box.height, Int((Double(height) * scale).rounded())))
    }

    /// The largest size of this aspect ratio that fits in `box` (aspect-fit, as the pager shows a
    /// photo): one side equals the box, the other is at most as long, and never below 1.
    public func fitting(in box: ImageSize) -> ImageSize {
        guard !isEmpty, !box.isEmpty else { return ImageSize(width: max(1, box.width), height: max(1, box.height)) }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return ImageSize(width: max(1, min(box.width, Int((Double(width) * scale).rounded()))),
                         height: max(1, min(box.height, Int((Double(height) * scale).rounded()))))
    }

    public var description: String { "\(width)x\(height)" }
}
