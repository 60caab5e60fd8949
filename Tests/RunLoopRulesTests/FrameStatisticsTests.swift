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
        #expect(statistics.drawSummary == "frames 100, draw p50 \(statistics.percentile(50)! == 0.051 ? "51.00" : "50.00") ms, p99 99.00 ms, max 100.00 ms, latency none")
        statistics.reset()
        #expect(statistics.drawSummary == "frames 0, draw p50 0.00 ms, p99 0.00 ms, max 0.00 ms, latency none")
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
        #expect(statistics.drawSummary == "frames 5, draw p50 1.00 ms, p99 1.00 ms, max 1.00 ms, rows p50 0, max 480, latency none")
    }
}

@Suite struct FrameStatisticsLatencyTests {
    /// The minute line and STATUS= add the touch latency only when a touch changed the picture.
    @Test func theSummaryAddsTouchLatencyWhenThereIsSome() {
        var statistics = FrameStatistics()
        statistics.record(composeTime: 0.002, missedVblanks: 0)
        #expect(statistics.summary == "1 frames, 0 dropped, frame time p50 2.0 ms, p99 2.0 ms")
        for i in 1...100 { statistics.record(latency: Double(i) / 10000) }
        #expect(statistics.summary == "1 frames, 0 dropped, frame time p50 2.0 ms, p99 2.0 ms; touch latency p50 5.1 ms, p99 9.9 ms")
        statistics.reset()
        #expect(statistics.latencies.count == 0)
    }

    /// `simulate --stats` ends with the latency, or says there was none.
    @Test func theDrawSummaryEndsWithTheLatency() {
        var statistics = FrameStatistics()
        statistics.record(composeTime: 0.001, missedVblanks: 0, rowsWritten: 480)
        #expect(statistics.drawSummary == "frames 1, draw p50 1.00 ms, p99 1.00 ms, max 1.00 ms, rows p50 480, max 480, latency none")
        statistics.record(latency: 0.004)
        statistics.record(latency: 0.016)
        #expect(statistics.drawSummary.hasSuffix(", rows p50 480, max 480, latency p50 16.0 ms, p99 16.0 ms"))
    }

    /// A period's latencies in bounded memory: past the capacity an even sample of them is kept,
    /// and its percentiles stay those of the whole period.
    @Test func aLongPeriodKeepsAnEvenSample() {
        var sample = LatencySample()
        let n = LatencySample.capacity * 5 + 3
        for i in 0..<n { sample.record(0.1 * Double(i) / Double(n)) }
        #expect(sample.count == n)
        #expect(sample.values.count <= LatencySample.capacity)
        #expect(sample.values.count > LatencySample.capacity / 2)
        let percentiles = try! #require(sample.percentiles)
        #expect(abs(percentiles.p50 - 0.050) <= 0.002)
        #expect(abs(percentiles.p99 - 0.099) <= 0.002)
    }
}
