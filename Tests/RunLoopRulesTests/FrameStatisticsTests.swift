import Testing
@testable import RunLoopRules

/// The numbers behind the minute log line and systemd's STATUS=.
@Suite struct FrameStatisticsTests {
    @Test func countsFramesDropsAndPercentilesOfComposeTime() {
        var statistics = FrameStatistics()
        #expect(statistics.summary == "no frames drawn")
        for i in 1...100 {
            statistics.record(composeTime: Double(i) / 1000, missedVblanks: i == 50 ? 2 : 0)
        }
        #expect(statistics.framesDrawn == 100)
        #expect(statistics.framesDropped == 2)
        #expect(statistics.percentile(50) == 0.051 || statistics.percentile(50) == 0.050)
        #expect(statistics.percentile(99) == 0.099)
        #expect(statistics.summary == "100 frames, 2 dropped, frame time p50 \(statistics.percentile(50)! == 0.051 ? "51.0" : "50.0") ms, p99 99.0 ms")
        #expect(statistics.drawSummary == "frames 100, draw p50 \(statistics.percentile(50)! == 0.051 ? "51.00" : "50.00") ms, p99 99.00 ms, max 100.00 ms")
        statistics.reset()
        #expect(statistics.drawSummary == "frames 0, draw p50 0.00 ms, p99 0.00 ms, max 0.00 ms")
        #expect(statistics.framesDrawn == 0 && statistics.summary == "no frames drawn")
    }
}

@Suite struct FrameStatisticsRowsTests {
    /// `simulate --stats` ends with the display rows written per frame, after the draw times.
    @Test func theDrawSummaryEndsWithTheRowsWritten() {
        var statistics = FrameStatistics()
        for rows in [480, 0, 0, 36, 0] {
            statistics.record(composeTime: 0.001, missedVblanks: 0, rowsWritten: rows)
        }
        #expect(statistics.drawSummary == "frames 5, draw p50 1.00 ms, p99 1.00 ms, max 1.00 ms, rows p50 0, max 480")
    }
}
