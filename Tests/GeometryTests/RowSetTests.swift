import Geometry
import Testing

@Suite struct RowSetTests {
    @Test func rangesThatOverlapOrTouchMergeAndOthersStayApart() {
        var rows = RowSet()
        rows.insert(10..<20)
        rows.insert(40..<50)
        rows.insert(20..<25)  // touches the first
        rows.insert(0..<0)    // adds nothing
        #expect(rows.ranges == [10..<25, 40..<50])
        rows.insert(5..<45)   // swallows both
        #expect(rows.ranges == [5..<50])
        #expect(rows.count == 45)
        rows.insert(60..<61)
        rows.insert(0..<2)
        #expect(rows.ranges == [0..<2, 5..<50, 60..<61])
        #expect(rows.contains(5) && !rows.contains(50) && rows.contains(60))
    }

    @Test func unionClampOffsetAndFlip() {
        let rows = RowSet([0..<10, 90..<100])
        #expect(rows.union(RowSet(5..<95)) == RowSet(0..<100))
        #expect(rows.clamped(to: 5..<95) == RowSet([5..<10, 90..<95]))
        #expect(rows.offset(by: 20) == RowSet([20..<30, 110..<120]))
        // Upside down in 100 rows: the top ten become the bottom ten.
        #expect(RowSet([0..<10, 50..<60]).flipped(height: 100) == RowSet([40..<50, 90..<100]))
        #expect(RowSet.all(3).count == 3 && RowSet.all(-1).isEmpty)
    }
}
