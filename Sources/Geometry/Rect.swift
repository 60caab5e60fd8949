/// An axis-aligned rectangle in screen pixels (origin top-left).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var center: Point { Point(x: midX, y: midY) }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Inclusive of the top-left edges, exclusive of the bottom-right ones.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The common part of two rectangles, or nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The largest rectangle of `content`'s aspect ratio that fits inside self, centred.
    public func aspectFit(_ content: Size) -> Rect {
        guard content.width > 0, content.height > 0, !isEmpty else { return self }
        let scale = min(width / content.width, height / content.height)
        let w = content.width * scale, h = content.height * scale
        return Rect(x: midX - w / 2, y: midY - h / 2, width: w, height: h)
    }

    /// `aspectFit` on whole pixels: the size rounded as the decode for it is (`ImageSize.fitting`),
    /// the origin on a whole pixel (half the spare room, rounded down). A photo decoded at that
    /// size is copied into it, not resampled: drawn where the arithmetic puts it (x = 40.47 for a
    /// 1280x854 photo on a 1280x800 screen), every pixel would be a blend of two neighbours, the
    /// picture softer and half a pixel off.
    public func aspectFitOnPixels(_ content: Size) -> Rect {
        guard content.width > 0, content.height > 0, !isEmpty else { return self }
        let scale = min(width / content.width, height / content.height)
        let w = max(1, min(width, (content.width * scale).rounded())), h = max(1, min(height, (content.height * scale).rounded()))
        return Rect(x: (minX + (width - w) / 2).rounded(.down), y: (minY + (height - h) / 2).rounded(.down), width: w, height: h)
    }

    /// The smallest rectangle of `content`'s aspect ratio that covers self, centred.
    public func aspectFill(_ content: Size) -> Rect {
        guard content.width > 0, content.height > 0, !isEmpty else { return self }
        let scale = max(width / content.width, height / content.height)
        let w = content.width * scale, h = content.height * scale
        return Rect(x: midX - w / 2, y: midY - h / 2, width: w, height: h)
    }

    /// Linear interpolation of origin and size; t = 0 gives self, t = 1 gives `to`.
    public func interpolated(to: Rect, _ t: Double) -> Rect {
        Rect(x: x + (to.x - x) * t, y: y + (to.y - y) * t,
             width: width + (to.width - width) * t, height: height + (to.height - height) * t)
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
