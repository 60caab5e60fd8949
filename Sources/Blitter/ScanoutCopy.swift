import CBlitterKernels

/// Pixels copied into a buffer the CPU writes and never reads back: the display's scan-out buffer.
/// With non-temporal stores where the CPU has them, so that a frame's worth of lines written for
/// the display does not push out of the cache the grid layer, the photo and the picture the next
/// frame reads (elsewhere a plain copy).
public enum ScanoutCopy {
    public static func copy(from source: UnsafePointer<UInt32>, to target: UnsafeMutablePointer<UInt32>, count: Int) {
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
        let stride = self.stride, sourceStride = source.stride
        pixels.withUnsafeMutableBufferPointer { buffer in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                guard let base = buffer.baseAddress, let sourceBase = sourceBuffer.baseAddress else { return }
                for y in rows { ScanoutCopy.copy(from: sourceBase + y * sourceStride, to: base + y * stride, count: width) }
            }
        }
    }
}
