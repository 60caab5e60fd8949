import Geometry

/// 8-bit coverage (0 = nothing, 255 = full), row after row: text drawn once and then laid over
/// pictures in any colour and at any alpha (`Bitmap.blend(_:through:at:alpha:clip:)`).
public struct AlphaMask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var coverage: [UInt8]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        coverage = [UInt8](repeating: 0, count: self.width * self.height)
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var byteCount: Int { coverage.count }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { coverage[y * width + x] }
        set { coverage[y * width + x] = newValue }
    }

    /// Adds `width` x `height` coverage values (row after row) with their top-left corner at
    /// (`x`, `y`), clipped to the mask; where two shapes overlap the coverage saturates.
    public mutating func add(_ values: [UInt8], width: Int, height: Int, at x: Int, _ y: Int) {
        let area = PixelRect(x: x, y: y, width: width, height: height).intersection(bounds)
        guard !area.isEmpty, values.count >= width * height else { return }
        for row in area.minY..<area.maxY {
            let from = (row - y) * width - x, to = row * self.width
            for column in area.minX..<area.maxX {
                let sum = Int(coverage[to + column]) + Int(values[from + column])
                coverage[to + column] = UInt8(min(255, sum))
            }
        }
    }
}
