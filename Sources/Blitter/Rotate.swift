import Geometry

extension Bitmap {
    /// Writes `self` turned clockwise by `quarterTurns` x 90 degrees into `target`, whose size must
    /// be the turned size (width and height swapped for odd turns). For panels mounted sideways:
    /// the scene draws upright at the logical size, this turns it into the mode's buffer.
    public func rotated(quarterTurns: Int, into target: inout Bitmap) {
        let turns = ((quarterTurns % 4) + 4) % 4
        let (w, h) = (width, height)
        precondition(turns % 2 == 0 ? (target.width == w && target.height == h) : (target.width == h && target.height == w),
                     "rotated(quarterTurns:into:) needs a \(turns % 2 == 0 ? "\(w)x\(h)" : "\(h)x\(w)") target")
        let srcStride = stride, dstStride = target.stride
        pixels.withUnsafeBufferPointer { src in
            target.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = y * srcStride
                    for x in 0..<w {
                        let p = src[row + x]
                        switch turns {
                        case 0: dst[y * dstStride + x] = p
                        case 1: dst[x * dstStride + (h - 1 - y)] = p          // (x, y) -> (h-1-y, x)
                        case 2: dst[(h - 1 - y) * dstStride + (w - 1 - x)] = p
                        default: dst[(w - 1 - x) * dstStride + y] = p         // (x, y) -> (y, w-1-x)
                        }
                    }
                }
            }
        }
    }
}
