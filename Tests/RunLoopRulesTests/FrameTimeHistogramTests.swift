import RunLoopRules
import Testing

@Suite struct FrameTimeHistogramTests {
    @Test func framesFallIntoTheirBucketsCumulatively() {
        var histogram = FrameTimeHistogram()
        for seconds in [0.0005, 0.001, 0.003, 0.003, 0.02, 0.5] { histogram.record(seconds) }
        let cumulative = histogram.cumulative
        #expect(cumulative.map(\.bound) == FrameTimeHistogram.bounds + [.infinity])
        // le 0.001: 0.0005 and 0.001 (the bound is inclusive); le 0.004: the two 3 ms frames more.
        #expect(cumulative.map(\.count) == [2, 2, 4, 4, 4, 5, 5, 5, 6])
        #expect(histogram.count == 6)
        #expect(abs(histogram.sum - 0.5275) < 1e-12)
    }

    @Test func anEmptyHistogramCountsNothing() {
        let histogram = FrameTimeHistogram()
        #expect(histogram.cumulative.allSatisfy { $0.count == 0 })
        #expect(histogram.count == 0 && histogram.sum == 0)
    }
}
