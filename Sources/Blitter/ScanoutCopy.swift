import CBlitterKernels

/// Pixels copied into a buffer the CPU writes and never reads back: the display's scan-out buffer.
/// With non-temporal stores where the CPU has them, so that a frame's worth of lines written for
/// the display does not push out of the cache the grid layer, the photo and the picture the next
/// frame reads (elsewhere a plain copy). Such stores are ordered by a fence, once a frame:
/// `writing` runs the copies and fences after them.
public struct ScanoutCopy {
    private init() {}

    /// Runs `body` with a copier; when it returns, every pixel it copied is in memory before
    /// anything that follows (the flip that shows them).
    public static func writing<Result>(_ body: (ScanoutCopy) throws -> Result) rethrows -> Result {
        defer { vitrine_streaming_fence() }
        return try body(ScanoutCopy())
    }

    public func copy(from source: UnsafePointer<UInt32>, to target: UnsafeMutablePointer<UInt32>, count: Int) {
        guard count > 0 else { return }
        vitrine_copy_streaming(source, target, count)
    }
}

extension Bitmap {
    /// Rows `rows` of `source`, a bitmap of this size, copied here with `ScanoutCopy`.
    public mutating func copyRowsForScanout(from source: Bitmap, rows: Range<Int>) {
        precondition(source.width == width && source.height == height, "copyRowsForScanout: sizes differ")
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let stride = self.stride, sourceStride = source.stride, width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                ScanoutCopy.writing { copier in
                    for y in rows { copier.copy(from: sourceBase + y * sourceStride, to: base + y * stride, count: width) }
                }
            }
        }
    }
}
