extension Bitmap {
    /// Writes `rows` (clipped to the bitmap) to memory laid out with `destinationPitch` bytes per
    /// row, such as a mapped DRM dumb buffer. Each destination byte is written once and none is
    /// read: dumb buffers are often write-combined or uncached. Rows are cut to the pitch if the
    /// pitch is narrower than `width * 4`.
    public func copyRows(_ rows: Range<Int>, to destination: UnsafeMutableRawPointer, destinationPitch: Int) {
        let first = Swift.max(rows.lowerBound, 0), end = Swift.min(rows.upperBound, height)
        let rowBytes = Swift.min(width * MemoryLayout<UInt32>.stride, destinationPitch)
        guard first < end, rowBytes > 0 else { return }
        pixels.withUnsafeBytes { source in
            guard let sourceBase = source.baseAddress else { return }
            let sourcePitch = stride * MemoryLayout<UInt32>.stride
            for y in first..<end {
                (destination + y * destinationPitch).copyMemory(from: sourceBase + y * sourcePitch, byteCount: rowBytes)
            }
        }
    }
}
