import CBlitterKernels
import Geometry

extension Bitmap {
    /// Copies `sourceRect` of `source` (all of it by default) 1:1 so that its top-left pixel lands
    /// at `origin`. Whatever falls outside the source, this bitmap or `clip` is skipped, so
    /// negative origins and partly visible sources are fine.
    public mutating func copy(from source: Bitmap, sourceRect: PixelRect? = nil, to origin: (x: Int, y: Int),
                              clip: PixelRect? = nil) {
        guard let span = CopySpan(source: source, sourceRect: sourceRect, origin: origin,
                                  target: clip.map { $0.intersection(bounds) } ?? bounds) else { return }
        let stride = self.stride, sourceStride = source.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                let to = base + span.destinationY * stride + span.destinationX
                let from = sourceBase + span.sourceY * sourceStride + span.sourceX
                guard span.width == stride && span.width == sourceStride else {
                    for row in 0..<span.height {
                        let last = row + 1 == span.height
                        vitrine_copy_prefetching(from + row * sourceStride, to + row * stride, span.width,
                                                 last ? nil : from + (row + 1) * sourceStride,
                                                 last ? nil : to + (row + 1) * stride)
                    }
                    return
                }
                // Whole rows on both sides are one run of pixels, copied in pieces of 256 KB: big
                // enough that glibc's memmove takes `rep movsb` (a 1080p row, 7.5 KB, goes through
                // its vector loop, about 5% slower), small enough to stay under its non-temporal
                // threshold (one 8 MB call bypasses the cache and leaves the frame out of it for
                // what is drawn over it next).
                let count = span.width * span.height, piece = 65536
                for start in Swift.stride(from: 0, to: count, by: piece) {
                    (to + start).update(from: from + start, count: min(piece, count - start))
                }
            }
        }
    }

    /// Moves whole rows `dy` rows down (negative: up) within this bitmap, a scroll: row y of the
    /// result is row y - dy of before wherever that row exists; the rows it uncovers keep their
    /// pixels, to be drawn over. In pieces of 256 KB, as `copy`, taken in the order that reads
    /// each before it is overwritten.
    public mutating func moveRows(by dy: Int) {
        guard dy != 0, dy > -height, dy < height else { return }
        let stride = self.stride, count = (height - abs(dy)) * stride, piece = 65536
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let from = base + max(0, -dy) * stride, to = base + max(0, dy) * stride
            // Up: from the first piece; down: from the last. Within a piece memmove copes.
            let starts = Array(Swift.stride(from: 0, to: count, by: piece))
            for start in dy < 0 ? starts : starts.reversed() {
                UnsafeMutableRawPointer(to + start).copyMemory(from: from + start,
                                                               byteCount: min(piece, count - start) * MemoryLayout<UInt32>.stride)
            }
        }
    }

    /// `copy`, but laying the source over what is there with a constant `alpha` in 0...1, with the
    /// same rounding as `blend(_:color:alpha:)`.
    public mutating func blend(from source: Bitmap, sourceRect: PixelRect? = nil, to origin: (x: Int, y: Int),
                               alpha: Double, clip: PixelRect? = nil) {
        let a = PixelMath.alphaWeight(alpha)
        if a == 0 { return }
        if a == PixelMath.opaque { return copy(from: source, sourceRect: sourceRect, to: origin, clip: clip) }
        guard let span = CopySpan(source: source, sourceRect: sourceRect, origin: origin,
                                  target: clip.map { $0.intersection(bounds) } ?? bounds) else { return }
        let stride = self.stride, sourceStride = source.stride, weight = UInt64(a)
        let alphaLanes = Lanes(repeating: UInt16(a)), inverseLanes = Lanes(repeating: UInt16(PixelMath.opaque - a))
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                for row in 0..<span.height {
                    let to = base + (span.destinationY + row) * stride + span.destinationX
                    let from = sourceBase + (span.sourceY + row) * sourceStride + span.sourceX
                    @inline(__always) func blend4(_ x: Int) {
                        let blended = PixelVector.blend(PixelVector.load(from + x), over: PixelVector.load(to + x),
                                                        alpha: alphaLanes, inverse: inverseLanes)
                        PixelVector.storePixels(blended, to: to + x)
                    }
                    var x = 0
                    // Eight pixels a turn: the loop's own bookkeeping weighs on a loop this short.
                    while x &+ 8 <= span.width {
                        blend4(x)
                        blend4(x &+ 4)
                        x &+= 8
                    }
                    while x &+ 4 <= span.width {
                        blend4(x)
                        x &+= 4
                    }
                    while x < span.width {
                        to[x] = PixelMath.blend(from[x], over: to[x], alpha: weight)
                        x += 1
                    }
                }
            }
        }
    }
}

/// The part of a 1:1 copy that survives clipping on both sides, in source and destination pixels.
struct CopySpan {
    let sourceX: Int, sourceY: Int
    let destinationX: Int, destinationY: Int
    let width: Int, height: Int

    /// Nil when nothing is visible. `target` is already clipped to the destination bitmap.
    init?(source: Bitmap, sourceRect: PixelRect?, origin: (x: Int, y: Int), target: PixelRect) {
        let from = (sourceRect ?? source.bounds).intersection(source.bounds)
        guard !from.isEmpty else { return nil }
        // Where the clipped source would land; a source clipped on its left or top moves with it.
        let dx = origin.x - (sourceRect?.minX ?? 0), dy = origin.y - (sourceRect?.minY ?? 0)
        let landed = PixelRect(x: from.minX + dx, y: from.minY + dy, width: from.width, height: from.height)
        let visible = landed.intersection(target)
        guard !visible.isEmpty else { return nil }
        sourceX = visible.minX - dx
        sourceY = visible.minY - dy
        destinationX = visible.minX
        destinationY = visible.minY
        width = visible.width
        height = visible.height
    }
}
