import Geometry
import Testing
@testable import DRM

/// Two buffers take turns on screen; each frame is written into the one not shown, which holds
/// the frame before last, so it gets this frame's changed rows and those of the frame it missed.
@Suite struct BufferDamageTests {
    @Test func eachNewBufferIsWrittenWholeOnce() {
        var damage = BufferDamage(height: 480)
        #expect(damage.rowsToWrite(into: 0, changed: RowSet()).count == 480)
        #expect(damage.rowsToWrite(into: 1, changed: RowSet()).count == 480)
        // A still frame after that copies nothing.
        #expect(damage.rowsToWrite(into: 0, changed: RowSet()).isEmpty)
        #expect(damage.rowsToWrite(into: 1, changed: RowSet()).isEmpty)
    }

    @Test func aBufferCatchesUpWithTheRowsOfTheFrameItMissed() {
        var damage = BufferDamage(height: 480)
        _ = damage.rowsToWrite(into: 0, changed: nil)
        _ = damage.rowsToWrite(into: 1, changed: RowSet())
        // A caption changes: its rows go to buffer 0...
        #expect(damage.rowsToWrite(into: 0, changed: RowSet(400..<480)) == RowSet(400..<480))
        // ...then a cell changes: buffer 1 gets the cell's rows and the caption's it missed.
        #expect(damage.rowsToWrite(into: 1, changed: RowSet(40..<80)) == RowSet([40..<80, 400..<480]))
        // Nothing changes: buffer 0 still misses the cell.
        #expect(damage.rowsToWrite(into: 0, changed: RowSet()) == RowSet(40..<80))
        #expect(damage.rowsToWrite(into: 1, changed: RowSet()).isEmpty)
        #expect(damage.rowsToWrite(into: 0, changed: RowSet()).isEmpty)
    }

    @Test func unknownChangesAndInvalidationWriteEverything() {
        var damage = BufferDamage(height: 100)
        _ = damage.rowsToWrite(into: 0, changed: nil)
        _ = damage.rowsToWrite(into: 1, changed: RowSet())
        #expect(damage.rowsToWrite(into: 0, changed: nil).count == 100)
        // Buffer 1 missed that whole frame.
        #expect(damage.rowsToWrite(into: 1, changed: RowSet(0..<5)).count == 100)
        damage.invalidateAll()
        #expect(damage.rowsToWrite(into: 0, changed: RowSet()).count == 100)
        #expect(damage.rowsToWrite(into: 1, changed: RowSet()).count == 100)
        // Rows past the buffer's height are not written.
        #expect(damage.rowsToWrite(into: 0, changed: RowSet(90..<200)) == RowSet(90..<100))
    }

    /// The same frame presented into the same buffer again (a flip that failed): it still gets
    /// the rows it missed.
    @Test func writingTheSameBufferTwiceKeepsTheOtherUpToDate() {
        var damage = BufferDamage(height: 100)
        _ = damage.rowsToWrite(into: 0, changed: nil)
        _ = damage.rowsToWrite(into: 1, changed: RowSet())
        #expect(damage.rowsToWrite(into: 0, changed: RowSet(10..<20)) == RowSet(10..<20))
        #expect(damage.rowsToWrite(into: 0, changed: RowSet(30..<40)) == RowSet(30..<40))
        #expect(damage.rowsToWrite(into: 1, changed: RowSet()) == RowSet([10..<20, 30..<40]))
    }
}
