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
    /// Source positions step across and down in 16.16 fixed point, as in pixman: `stepX` per
    /// destination column from `startX` at the centre of column `anchorColumn` (the first column
    /// of the unclipped destination, so a draw split by clips samples the same positions).
    /// Exact integer steps, and a position's fraction is the weight; the drift from the exact
    /// scale is below 2^-17 pixel per pixel, 0.015 pixel across a 1920-pixel row.
    let stepX: Int, startX: Int, anchorColumn: Int
    let stepY: Int, startY: Int, anchorRow: Int

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
        // Source pixels per destination pixel.
        let scaleX = sourceRect.width / destination.width, scaleY = sourceRect.height / destination.height
        let originX = sourceRect.minX - destination.minX * scaleX
        let originY = sourceRect.minY - destination.minY * scaleY
        // Clamped so that huge (but finite) rects stay inside Int: positions that far out are
        // clamped onto the source's edge pixels anyway, and no source is 65536 times a pixel.
        func fixed(_ v: Double) -> Int { Int((v.clamped(to: -1e9...1e9) * 65536).rounded()) }
        func anchor(_ v: Double) -> Int { Int((v - 0.5).rounded(.up).clamped(to: -1e6...1e6)) }
        anchorColumn = anchor(destination.minX)
        anchorRow = anchor(destination.minY)
        stepX = fixed(scaleX.clamped(to: -65536...65536))
        stepY = fixed(scaleY.clamped(to: -65536...65536))
        startX = fixed(originX + (Double(anchorColumn) + 0.5) * scaleX)
        startY = fixed(originY + (Double(anchorRow) + 0.5) * scaleY)
    }

    /// The source coordinates under the centre of destination pixel (x, y), on the 16.16 grid.
    func sourceX(_ x: Int) -> Double { Double(startX + (x - anchorColumn) * stepX) / 65536 }
    func sourceY(_ y: Int) -> Double { Double(startY + (y - anchorRow) * stepY) / 65536 }

    /// Bilinear weights are whole 1/128ths: a sample's position is taken to 1/128 of a pixel.
    static let weightSteps = 128

    /// The two source pixels to interpolate between and the weight of the second; positions are
    /// taken relative to pixel centres and clamped to `range`. The weight is rounded down to a
    /// whole 1/128th (`weightSteps`), as pixman does, so that both draw the same picture (within
    /// 2 levels) and the fixed-point passes multiply by exact weights.
    static func bilinear(_ coordinate: Double, in range: ClosedRange<Int>) -> (first: Int, second: Int, weight: Double) {
        let p = (coordinate - 0.5).clamped(to: Double(range.lowerBound)...Double(range.upperBound))
        let first = Int(p)
        let steps = Double(weightSteps)
        return (first, min(first + 1, range.upperBound), ((p - Double(first)) * steps).rounded(.down) / steps)
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
