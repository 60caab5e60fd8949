/// Where a frame of one size lands in a buffer of another: centred, cropped where it is larger,
/// black where it does not reach. Pure arithmetic, kept apart from the copying.
struct FramePlacement: Equatable {
    /// The frame's top-left corner in buffer coordinates (negative when cropped).
    let offsetX: Int
    let offsetY: Int
    /// Buffer columns the frame covers.
    let columns: Range<Int>
    /// Buffer rows the frame covers.
    let rows: Range<Int>

    init(frameWidth: Int, frameHeight: Int, bufferWidth: Int, bufferHeight: Int) {
        offsetX = (bufferWidth - frameWidth) / 2
        offsetY = (bufferHeight - frameHeight) / 2
        columns = Self.clamp(offsetX..<(offsetX + max(0, frameWidth)), to: bufferWidth)
        rows = Self.clamp(offsetY..<(offsetY + max(0, frameHeight)), to: bufferHeight)
    }

    /// Buffer rows that show the given frame rows.
    func bufferRows(forFrameRows frameRows: Range<Int>) -> Range<Int> {
        let shifted = (frameRows.lowerBound + offsetY)..<(frameRows.upperBound + offsetY)
        return shifted.clamped(to: rows)
    }

    static func clamp(_ range: Range<Int>, to limit: Int) -> Range<Int> {
        range.clamped(to: 0..<max(0, limit))
    }
}

extension Range where Bound == Int {
    /// The smallest range holding both (an empty range adds nothing).
    func hull(_ other: Range<Int>) -> Range<Int> {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return Swift.min(lowerBound, other.lowerBound)..<Swift.max(upperBound, other.upperBound)
    }
}
