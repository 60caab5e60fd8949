/// A set of pixel rows as sorted, disjoint, non-adjacent half-open ranges: the rows of a frame
/// that changed (the renderer's damage), and the rows a display buffer must be written.
public struct RowSet: Equatable, Sendable, CustomStringConvertible {
    public private(set) var ranges: [Range<Int>] = []

    public init() {}

    public init(_ range: Range<Int>) {
        insert(range)
    }

    public init(_ ranges: [Range<Int>]) {
        for range in ranges { insert(range) }
    }

    /// Every row of a picture `height` rows tall.
    public static func all(_ height: Int) -> RowSet { RowSet(0..<max(0, height)) }

    public var isEmpty: Bool { ranges.isEmpty }
    /// How many rows.
    public var count: Int { ranges.reduce(0) { $0 + $1.count } }

    public func contains(_ row: Int) -> Bool { ranges.contains { $0.contains(row) } }

    /// Adds `range`, merged with the ranges it overlaps or touches.
    public mutating func insert(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        var lower = range.lowerBound, upper = range.upperBound
        // The ranges before `range` and not touching it stay; so do those after.
        let first = ranges.firstIndex { $0.upperBound >= lower } ?? ranges.endIndex
        var last = first
        while last < ranges.endIndex && ranges[last].lowerBound <= upper {
            lower = Swift.min(lower, ranges[last].lowerBound)
            upper = Swift.max(upper, ranges[last].upperBound)
            last += 1
        }
        ranges.replaceSubrange(first..<last, with: [lower..<upper])
    }

    public mutating func formUnion(_ other: RowSet) {
        for range in other.ranges { insert(range) }
    }

    public func union(_ other: RowSet) -> RowSet {
        var result = self
        result.formUnion(other)
        return result
    }

    /// The rows inside `limit`.
    public func clamped(to limit: Range<Int>) -> RowSet {
        RowSet(ranges.map { $0.clamped(to: limit) })
    }

    /// Each row moved by `offset`.
    public func offset(by offset: Int) -> RowSet {
        RowSet(ranges.map { ($0.lowerBound + offset)..<($0.upperBound + offset) })
    }

    /// The rows of a picture `height` rows tall turned upside down (row y becomes height - 1 - y).
    public func flipped(height: Int) -> RowSet {
        RowSet(ranges.map { (height - $0.upperBound)..<(height - $0.lowerBound) })
    }

    public var description: String {
        ranges.isEmpty ? "none" : ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
    }
}
