/// An integer rectangle of whole pixels: the blitter's clip and copy regions.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Int { x }
    public var minY: Int { y }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The common part, or an empty rect at the origin when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}

extension Rect {
    /// The whole pixels this rectangle touches (rounded outward).
    public var enclosingPixels: PixelRect {
        let x0 = Int(pixel: minX.rounded(.down)), y0 = Int(pixel: minY.rounded(.down))
        let x1 = Int(pixel: maxX.rounded(.up)), y1 = Int(pixel: maxY.rounded(.up))
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
