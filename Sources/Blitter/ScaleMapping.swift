import Geometry

/// How a scaled copy maps destination pixels to source positions; shared by the fast path and the
/// scalar reference so both write exactly the same pixels.
///
/// The source rect's continuous coordinates are stretched linearly onto the destination rect's. A
/// destination pixel is written when its centre lies inside destination ∩ clip ∩ bitmap, and it
/// samples the source at the position its centre maps to. Samples are clamped to the pixels that
/// `sourceRect` touches, so an edge-to-edge upscale repeats the edge pixels instead of fading.
struct ScaleMapping {
    /// Destination pixels to write.
    let columns: Range<Int>
    let rows: Range<Int>
    /// Source pixels that may be read.
    let sourceColumns: ClosedRange<Int>
    let sourceRows: ClosedRange<Int>
    /// Source pixels per destination pixel.
    let scaleX: Double
    let scaleY: Double
    /// The source coordinate of destination coordinate 0.
    let originX: Double
    let originY: Double

    /// Nil when nothing would be drawn, including for non-finite or empty rects.
    init?(sourceSize: (width: Int, height: Int), sourceRect: Rect, destination: Rect, clip: PixelRect) {
        let values = [sourceRect.x, sourceRect.y, sourceRect.width, sourceRect.height,
                      destination.x, destination.y, destination.width, destination.height]
        guard values.allSatisfy(\.isFinite), !sourceRect.isEmpty, !destination.isEmpty, !clip.isEmpty else { return nil }

        func centres(_ low: Double, _ high: Double, within limit: Range<Int>) -> Range<Int> {
            // Pixel i is inside when low <= i + 0.5 < high.
            let lo = Double(limit.lowerBound), hi = Double(limit.upperBound)
            let first = Int(min(max((low - 0.5).rounded(.up), lo), hi))
            let end = Int(min(max((high - 0.5).rounded(.up), lo), hi))
            return first..<max(first, end)
        }
        func touched(_ low: Double, _ high: Double, count: Int) -> ClosedRange<Int>? {
            let first = Int(low.rounded(.down).clamped(to: 0...Double(count)))
            let last = Int((high.rounded(.up) - 1).clamped(to: -1...Double(count - 1)))
            return first <= last ? first...last : nil
        }

        columns = centres(destination.minX, destination.maxX, within: clip.minX..<clip.maxX)
        rows = centres(destination.minY, destination.maxY, within: clip.minY..<clip.maxY)
        guard !columns.isEmpty, !rows.isEmpty,
              let sourceColumns = touched(sourceRect.minX, sourceRect.maxX, count: sourceSize.width),
              let sourceRows = touched(sourceRect.minY, sourceRect.maxY, count: sourceSize.height)
        else { return nil }
        self.sourceColumns = sourceColumns
        self.sourceRows = sourceRows
        scaleX = sourceRect.width / destination.width
        scaleY = sourceRect.height / destination.height
        originX = sourceRect.minX - destination.minX * scaleX
        originY = sourceRect.minY - destination.minY * scaleY
    }

    /// The continuous source coordinates under the centre of destination pixel (x, y).
    func sourceX(_ x: Int) -> Double { originX + (Double(x) + 0.5) * scaleX }
    func sourceY(_ y: Int) -> Double { originY + (Double(y) + 0.5) * scaleY }

    /// The two source pixels to interpolate between and the weight of the second; positions are
    /// taken relative to pixel centres and clamped to `range`.
    static func bilinear(_ coordinate: Double, in range: ClosedRange<Int>) -> (first: Int, second: Int, weight: Double) {
        let p = (coordinate - 0.5).clamped(to: Double(range.lowerBound)...Double(range.upperBound))
        let first = Int(p)
        return (first, min(first + 1, range.upperBound), p - Double(first))
    }

    /// The source pixel containing `coordinate`, clamped to `range`.
    static func nearest(_ coordinate: Double, in range: ClosedRange<Int>) -> Int {
        Int(coordinate.rounded(.down).clamped(to: Double(range.lowerBound)...Double(range.upperBound)))
    }
}

extension Double {
    @inline(__always)
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
