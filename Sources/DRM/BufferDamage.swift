import Geometry

/// Which rows of each buffer of a flip chain are out of date, as weston keeps damage per buffer:
/// a frame is written into the buffer not on screen, which holds the frame before last (with two
/// buffers), so it needs the rows that changed in this frame and in every frame it missed. Pure
/// bookkeeping; `KMSDisplay` does the writing and `simulate` counts with it.
public struct BufferDamage: Equatable, Sendable {
    public let height: Int
    /// Per buffer: rows that do not show the last frame presented.
    private var stale: [RowSet]

    /// Buffers `height` rows tall, none written yet.
    public init(bufferCount: Int = 2, height: Int) {
        self.height = max(0, height)
        stale = Array(repeating: .all(self.height), count: max(1, bufferCount))
    }

    /// Every buffer must be written whole: their contents are unknown (a new frame size, the
    /// display back from power-off or a hotplug).
    public mutating func invalidateAll() {
        stale = stale.map { _ in .all(height) }
    }

    /// A frame that changed `changed` rows since the frame presented before it (nil: unknown,
    /// every row) goes into `buffer`: returns the rows to write there. The other buffers now miss
    /// those rows too.
    public mutating func rowsToWrite(into buffer: Int, changed: RowSet?) -> RowSet {
        let rows = changed.map { $0.clamped(to: 0..<height) } ?? .all(height)
        for other in stale.indices where other != buffer {
            stale[other].formUnion(rows)
        }
        let write = stale[buffer].union(rows)
        stale[buffer] = RowSet()
        return write
    }
}
