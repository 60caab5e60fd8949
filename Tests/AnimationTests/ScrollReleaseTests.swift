import Foundation
import Testing
@testable import Animation

/// A released scroll axis (the grid, a zoomed photo): coast inside the edges, spring back from past one.
@Suite struct ScrollReleaseTests {
    let bounce = Spring(duration: 0.5, dampingRatio: 1)

    func release(_ position: Double, _ velocity: Double) -> ScrollRelease {
        ScrollRelease(position: position, velocity: velocity, time: 2, lower: -500, upper: 0, decelerationRate: 0.998,
                      bounce: bounce, dimension: 1000)
    }

    @Test func insideTheEdgesItCoastsAndAtRestItIsDoneAtOnce() {
        let coast = release(-200, -300)
        let reference = Deceleration(position: -200, velocity: -300, time: 2, rate: 0.998)
        for t in [2.0, 2.1, 2.5, 3.5] {
            #expect(coast.position(at: t) == reference.position(at: t))
        }
        #expect(coast.endTime == reference.endTime)
        let still = release(-200, 0)
        #expect(still.isFinished(at: 2))
        #expect(still.position(at: 5) == -200)
    }

    @Test func coastingOverAnEdgeSpringsBackFromTheCrossingAtItsSpeed() throws {
        let coast = release(-100, 1000)  // would rest near +400
        let reference = Deceleration(position: -100, velocity: 1000, time: 2, rate: 0.998)
        let crossing = try #require(reference.time(reaching: 0))
        #expect(near(coast.position(at: crossing - 0.01), reference.position(at: crossing - 0.01)))
        // Past the edge it runs on and comes back: x = v t e^(-w0 t) on the critically damped spring.
        let v = reference.velocity(at: crossing), w0 = log(1000) / 0.5
        for dt in [0.05, 0.2, 0.4] {
            #expect(near(coast.position(at: crossing + dt), v * dt * exp(-w0 * dt), 1e-9))
        }
        #expect(coast.endTime == crossing + 0.5)
        #expect(coast.position(at: crossing + 0.5) == 0)
    }

    @Test func letGoPastAnEdgeItSpringsBackAtTheBandsShareOfTheSpeed() {
        // Shown 100 px past the lower edge: the finger was overshoot(100) past it, where the band
        // passes on slope(overshoot) of the finger's speed.
        let back = release(-600, -800)
        let raw = RubberBand.overshoot(forOffset: -100, dimension: 1000)
        let v = -800 * RubberBand.slope(raw, dimension: 1000), w0 = log(1000) / 0.5
        for dt in [0.0, 0.1, 0.3] {
            #expect(near(back.position(at: 2 + dt), -500 + (-100 + (v - 100 * w0) * dt) * exp(-w0 * dt), 1e-9))
        }
        #expect(back.position(at: 2.5) == -500)
    }

    private func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }
}
