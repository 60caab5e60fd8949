import RunLoopRules
import Testing

@Suite struct DurationHistogramTests {
    @Test func framesFallIntoTheirBucketsCumulatively() {
        var histogram = DurationHistogram(bounds: DurationHistogram.frameTimeBounds)
        for seconds in [0.0005, 0.001, 0.003, 0.003, 0.02, 0.5] { histogram.record(seconds) }
        let cumulative = histogram.cumulative
        #expect(cumulative.map(\.bound) == DurationHistogram.frameTimeBounds + [.infinity])
        // le 0.001: 0.0005 and 0.001 (the bound is inclusive); le 0.004: the two 3 ms frames more.
        #expect(cumulative.map(\.count) == [2, 2, 4, 4, 4, 5, 5, 5, 6])
        #expect(histogram.count == 6)
        #expect(abs(histogram.sum - 0.5275) < 1e-12)
    }

    @Test func anEmptyHistogramCountsNothing() {
        let histogram = DurationHistogram(bounds: DurationHistogram.frameTimeBounds)
        #expect(histogram.cumulative.allSatisfy { $0.count == 0 })
        #expect(histogram.count == 0 && histogram.sum == 0)
    }

    /// The touch latency's buckets: a touch shown at the next 60 Hz vblank, one a vblank late,
    /// and one that waited past every bound.
    @Test func boundsAreTheCallersOwn() {
        var histogram = DurationHistogram(bounds: DurationHistogram.touchLatencyBounds)
        for seconds in [0.010, 0.0160, 0.030, 2.0] { histogram.record(seconds) }
        #expect(histogram.cumulative.map(\.bound) == DurationHistogram.touchLatencyBounds + [.infinity])
        #expect(histogram.cumulative.map(\.count) == [0, 0, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 4])
    }
}
