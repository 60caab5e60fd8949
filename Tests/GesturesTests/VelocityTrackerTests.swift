import Testing
import Geometry
@testable import Gestures

@Suite struct VelocityTrackerTests {
    /// Samples every 8 ms (a 125 Hz panel) of `position(t)` from `start` to `end`.
    private func track(from start: Double, to end: Double, _ position: (Double) -> Point) -> VelocityTracker {
        var tracker = VelocityTracker()
        var t = start
        while t <= end + 1e-9 {
            tracker.add(position(t), at: t)
            t += 0.008
        }
        return tracker
    }

    @Test func constantVelocityGivesThatVelocity() {
        let tracker = track(from: 0, to: 0.3) { t in Point(x: 100 + 800 * t, y: 50 - 300 * t) }
        let v = tracker.velocity()
        #expect(abs(v.x - 800) < 1e-6)
        #expect(abs(v.y - -300) < 1e-6)
    }

    @Test func quadraticMotionGivesTheSlopeAtTheNewestSample() throws {
        // y = 2000 t^2: the slope at the newest sample (t = 0.296) is 4000 * 0.296.
        let tracker = track(from: 0, to: 0.3) { t in Point(x: 0, y: 2000 * t * t) }
        let newest = try #require(tracker.newestTime)
        #expect(abs(tracker.velocity().y - 4000 * newest) < 1e-6)
    }

    @Test func onlyTheLast100MillisecondsCount() {
        // Fast at first, then steady at 200 px/s for the last 150 ms: the early part is forgotten.
        let tracker = track(from: 0, to: 0.4) { t in
            t < 0.25 ? Point(x: 3000 * t, y: 0) : Point(x: 750 + 200 * (t - 0.25), y: 0)
        }
        #expect(abs(tracker.velocity().x - 200) < 1e-6)
    }

    @Test func aPauseClearsTheHistory() {
        var tracker = track(from: 0, to: 0.2) { t in Point(x: 1000 * t, y: 0) }
        // The finger rested 60 ms, then one sample at the same place.
        tracker.add(Point(x: 200, y: 0), at: 0.26)
        #expect(tracker.velocity() == .zero)
    }

    @Test func aFingerThatRestedBeforeLiftingHasNoVelocity() {
        let tracker = track(from: 0, to: 0.2) { t in Point(x: 0, y: 1000 * t) }
        #expect(tracker.velocity(at: 0.21).y > 900)
        #expect(tracker.velocity(at: 0.25) == .zero)
    }

    @Test func fewSamplesFallBackToLinearOrZero() {
        var tracker = VelocityTracker()
        #expect(tracker.velocity() == .zero)
        tracker.add(Point(x: 10, y: 10), at: 1)
        #expect(tracker.velocity() == .zero)
        tracker.add(Point(x: 20, y: 0), at: 1.01)
        #expect(abs(tracker.velocity().x - 1000) < 1e-6)
        #expect(abs(tracker.velocity().y - -1000) < 1e-6)
    }

    /// Issue #22: samples a nanosecond or 100 ns apart (a driver's or a recording's timestamps) and points
    /// off every scale give a velocity within ±maximumSpeed, never an infinity or NaN that the
    /// scroll physics would run on from.
    @Test func samplesANanosecondApartOrOffEveryScaleGiveABoundedVelocity() {
        let cases: [[(Double, Point)]] = [
            [(1, Point(x: 0, y: 0)), (1 + 1e-9, Point(x: 1000, y: -1000))],
            [(1, Point(x: 0, y: 0)), (1 + 1e-9, Point(x: 1, y: 0)), (1 + 2e-9, Point(x: 1e308, y: -1e308))],
            [(1, Point(x: -1e308, y: 0)), (1.008, Point(x: 1e308, y: 0)), (1.016, Point(x: -1e308, y: 0))],
            [(1, Point(x: .nan, y: .infinity)), (1.008, Point(x: 5, y: 5)), (1.016, Point(x: .infinity, y: .nan))],
        ]
        for samples in cases {
            var tracker = VelocityTracker()
            for (time, point) in samples { tracker.add(point, at: time) }
            let v = tracker.velocity()
            for speed in [v.x, v.y] {
                #expect(!speed.isNaN && abs(speed) <= VelocityTracker.maximumSpeed, "\(samples): \(v)")
            }
        }
        var fast = VelocityTracker()
        fast.add(Point(x: 0, y: 0), at: 1)
        fast.add(Point(x: 1000, y: 0), at: 1 + 1e-7)
        #expect(fast.velocity().x == VelocityTracker.maximumSpeed)
    }
}
