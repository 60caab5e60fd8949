import Geometry

/// Draws pictures dissolved into each other over black, writing each pixel of the target once: a
/// slideshow's crossfade (the previous slide at 1 - a, the next at a), a Ken Burns slide scaled
/// past the screen's edges, portrait pairs fading to the next pair.
///
/// Per pixel and channel: (sum of page_i x w_i + 128) / 256 over the layers that give the pixel a
/// value (`DissolveLayer.pixels(within:)`), with w_i = `PixelMath.alphaWeight(alpha_i)`; a pixel's
/// weights add up to at most 256 (a later layer's is cut to what the earlier ones leave, which
/// for a crossfade's 1 - a and a only ever takes off the 1/256 that rounding both up adds), so a
/// crossfade between two equal pictures is that picture. Pixels no layer covers are black. A
/// layer's page_i is what `drawAspectFill` draws, to the bit.
///
/// Each row is cut into spans by the layers' edges: a span of two layers is one two-source pass
/// (`DissolveRow.mix`), a span of one is it weighed over black, the rest is black. A layer at its
/// image's own size on whole pixels is read straight from its image's rows; a scaled one is first
/// drawn into a band of rows (`drawScaled`, bilinear from the right mip level), a scratch the
/// compositor keeps between frames (never a frame-sized temporary), while that band is still in
/// the cache.
public final class Dissolve {
    /// Rows per band: two 1920-pixel scaled layers' bands (480 KB) stay in a 1 MB L2, and the
    /// scaled draw's per-call set-up (its column tables) is shared by that many rows.
    public static let bandHeight = 32

    /// One scratch band per scaled layer; one row of a colour per colour layer.
    private var bands: [Bitmap] = []
    private var colorRows: [Bitmap] = []

    public init() {}

    /// A layer resolved for one draw: its pixels' bitmap (empty for a band's, which is held in
    /// `bands` alone: held twice, its pixels would be copied on every write), where it gives
    /// pixels a value and how.
    private struct Placed {
        var span: Span
        var bitmap: Bitmap
        /// Drawn into a band first: the index of its band, its source and rect.
        var scaled: (band: Int, source: Bitmap, sourceRect: Rect, rect: Rect)?
    }

    /// What the row loop needs of a layer, plain values: pixel (x, y) lies at
    /// (y - y0) * stride + (x - x0) in its bitmap (a colour's row has stride 0).
    private struct Span {
        var covered: PixelRect
        var weight: Int
        var x0: Int, y0: Int, stride: Int
    }

    /// `layers`, in order, over black, into `clip` of `target` (every pixel of it written).
    public func draw(_ layers: [DissolveLayer], into target: inout Bitmap, clip: PixelRect) {
        let area = clip.intersection(target.bounds)
        guard !area.isEmpty else { return }
        var placed: [Placed] = []
        var bandCount = 0, colorCount = 0
        for layer in layers {
            let weight = PixelMath.alphaWeight(layer.alpha), covered = layer.pixels(within: area)
            guard weight > 0, !covered.isEmpty, let source = layer.source else { continue }
            switch source {
            case let .rows(bitmap, x0, y0):
                placed.append(Placed(span: Span(covered: covered, weight: weight, x0: x0, y0: y0, stride: bitmap.stride),
                                     bitmap: bitmap))
            case let .scaled(bitmap, sourceRect):
                if bandCount == bands.count || bands[bandCount].width < target.width {
                    let band = Bitmap(width: target.width, height: Self.bandHeight)
                    if bandCount == bands.count { bands.append(band) } else { bands[bandCount] = band }
                }
                placed.append(Placed(span: Span(covered: covered, weight: weight, x0: 0, y0: 0, stride: bands[bandCount].stride),
                                     bitmap: Bitmap(width: 0, height: 0), scaled: (bandCount, bitmap, sourceRect, layer.rect)))
                bandCount += 1
            case let .color(color):
                let row = Bitmap(width: target.width, height: 1, color: color & 0x00FF_FFFF)
                if colorCount == colorRows.count { colorRows.append(row) } else { colorRows[colorCount] = row }
                placed.append(Placed(span: Span(covered: covered, weight: weight, x0: 0, y0: 0, stride: 0), bitmap: row))
                colorCount += 1
            }
        }
        var top = area.minY
        while top < area.maxY {
            let bottom = min(top + Self.bandHeight, area.maxY)
            for i in placed.indices {
                guard let scaled = placed[i].scaled else { continue }
                let rows = placed[i].span.covered.intersection(PixelRect(x: area.minX, y: top, width: area.width, height: bottom - top))
                guard !rows.isEmpty else { continue }
                // Rows top..<bottom of the target are rows 0..< of the band; a whole number of
                // rows up, the scaled draw samples the same positions.
                bands[scaled.band].drawScaled(scaled.source, sourceRect: scaled.sourceRect,
                                              into: scaled.rect.offsetBy(dx: 0, dy: -Double(top)),
                                              clip: PixelRect(x: rows.minX, y: rows.minY - top, width: rows.width, height: rows.height))
                placed[i].span.y0 = top
            }
            compose(rows: top..<bottom, columns: area.minX..<area.maxX, spans: placed.map(\.span),
                    bitmaps: placed.map { $0.scaled.map { bands[$0.band] } ?? $0.bitmap }, into: &target)
            top = bottom
        }
    }

    /// Rows of the target from the placed layers (their bands drawn for these rows).
    private func compose(rows: Range<Int>, columns: Range<Int>, spans placed: [Span], bitmaps: [Bitmap],
                         into target: inout Bitmap) {
        let stride = target.stride
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            Self.withBases(bitmaps[...], []) { bases in
                // Per row: the layers on it, the edges of their spans, then span by span.
                var active: [Int] = [], edges: [Int] = []
                active.reserveCapacity(placed.count)
                edges.reserveCapacity(2 * placed.count + 2)
                for y in rows {
                    let row = base + y * stride
                    active.removeAll(keepingCapacity: true)
                    edges.removeAll(keepingCapacity: true)
                    edges.append(columns.lowerBound)
                    edges.append(columns.upperBound)
                    for (i, layer) in placed.enumerated() where layer.covered.minY <= y && y < layer.covered.maxY {
                        active.append(i)
                        edges.append(layer.covered.minX)
                        edges.append(layer.covered.maxX)
                    }
                    edges.sort()
                    @inline(__always) func source(_ i: Int, _ x: Int) -> UnsafePointer<UInt32> {
                        let layer = placed[i]
                        return bases[i] + (y - layer.y0) * layer.stride + (x - layer.x0)
                    }
                    var weights: [Int] = []
                    for (start, end) in zip(edges, edges.dropFirst()) where start < end {
                        // The layers covering this span, in order, with their weights cut so
                        // that they add up to at most `opaque`.
                        var first = -1, second = -1, firstWeight = 0, secondWeight = 0, count = 0, left = PixelMath.opaque
                        for i in active where placed[i].covered.minX <= start && start < placed[i].covered.maxX {
                            let weight = min(placed[i].weight, left)
                            left -= weight
                            if count == 0 { (first, firstWeight) = (i, weight) } else if count == 1 { (second, secondWeight) = (i, weight) }
                            count += 1
                        }
                        let out = row + start, width = end - start
                        switch count {
                        case 0: out.update(repeating: Pixel.black, count: width)
                        case 1: DissolveRow.weigh(source(first, start), weight: firstWeight, into: out, count: width)
                        case 2: DissolveRow.mix(source(first, start), weight: firstWeight, source(second, start), weight: secondWeight,
                                                into: out, count: width)
                        default:
                            var sources: [UnsafePointer<UInt32>] = []
                            weights.removeAll(keepingCapacity: true)
                            left = PixelMath.opaque
                            for i in active where placed[i].covered.minX <= start && start < placed[i].covered.maxX {
                                sources.append(source(i, start))
                                weights.append(min(placed[i].weight, left))
                                left -= weights[weights.count - 1]
                            }
                            DissolveRow.sum(sources, weights: weights, into: out, count: width)
                        }
                    }
                }
            }
        }
    }

    /// `body` with the base address of each bitmap's pixels, in order.
    private static func withBases(_ bitmaps: ArraySlice<Bitmap>, _ bases: [UnsafePointer<UInt32>],
                                  _ body: ([UnsafePointer<UInt32>]) -> Void) {
        guard let first = bitmaps.first else { return body(bases) }
        first.pixels.withUnsafeBufferPointer { buffer in
            // An empty bitmap is never read (it covers nothing): any address will do.
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<UInt32>.alignment)!
            withBases(bitmaps.dropFirst(), bases + [base], body)
        }
    }
}
