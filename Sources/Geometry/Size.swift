/// A width and height in pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(width: Int, height: Int) {
        self.init(width: Double(width), height: Double(height))
    }

    public static let zero = Size(width: 0, height: 0)

    /// Width over height; 1 for an empty size so callers never divide by zero.
    public var aspectRatio: Double {
        width > 0 && height > 0 ? width / height : 1
    }

    public var area: Double { width * height }

    public static func * (s: Size, k: Double) -> Size { Size(width: s.width * k, height: s.height * k) }

    public var description: String { "\(width)x\(height)" }
}
