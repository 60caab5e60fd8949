import Foundation
import Testing
@testable import Animation

@Suite struct ScrollPhysicsTests {
    @Test func decelerationMultipliesVelocityByTheRateEveryMillisecond() {
        let coast = Deceleration(position: 100, velocity: 2000, time: 1, rate: 0.998)
        // Step the rule itself: each millisecond the velocity is multiplied by 0.998; the
        // position advances by that millisecond's exact integral.
        var p = 100.0, v = 2000.0
        let perMillisecond = (1 - 0.998) / -log(0.998) / 1000
        for ms in 1...500 {
            p += v * perMillisecond
            v *= 0.998
            if ms % 100 == 0 {
                let t = 1 + Double(ms) / 1000
                #expect(abs(coast.velocity(at: t) - v) < 1e-6)
                #expect(abs(coast.position(at: t) - p) < 1e-6)
            }
        }
        #expect(abs(coast.restingPosition - (100 + 2000 / (-1000 * log(0.998)))) < 1e-9)
    }

    @Test func decelerationStopsWithinHalfAPixelOfRest() {
        let coast = Deceleration(position: 0, velocity: -3000, time: 0, rate: 0.998)
        #expect(coast.duration > 1)
        #expect(abs(coast.position(at: coast.endTime) - coast.restingPosition) <= 0.5 + 1e-9)
        #expect(coast.velocity(at: coast.endTime) == 0)
        #expect(coast.position(at: 100) == coast.position(at: coast.endTime))
    }

    @Test func decelerationFindsWhenItReachesAPosition() throws {
        let coast = Deceleration(position: 0, velocity: 1000, time: 0, rate: 0.998)
        let t = try #require(coast.time(reaching: 300))
        #expect(abs(coast.position(at: t) - 300) < 1e-6)
        #expect(coast.time(reaching: 10_000) == nil)
    }

    @Test func rubberBandFollowsTheFormula() {
        let d = 1000.0
        for x in [1.0, 50, 200, 1000, 5000] {
            let expected = (1 - 1 / (x * 0.55 / d + 1)) * d
            #expect(abs(RubberBand.offset(x, dimension: d) - expected) < 1e-9)
            #expect(abs(RubberBand.offset(-x, dimension: d) + expected) < 1e-9)
            #expect(abs(RubberBand.overshoot(forOffset: expected, dimension: d) - x) < 1e-6 * x)
        }
        #expect(RubberBand.offset(1e9, dimension: d) < d)
        #expect(RubberBand.clamp(50, lower: 0, upper: 100, dimension: d) == 50)
        #expect(abs(RubberBand.clamp(300, lower: 0, upper: 100, dimension: d) - (100 + RubberBand.offset(200, dimension: d))) < 1e-9)
    }

    @Test func springBackReturnsToRestFromAVelocityAtRest() {
        let back = SpringBack(from: 0, to: 0, velocity: 2000, time: 0, duration: 0.5, dampingRatio: 1)
        #expect(back.value(at: 0) == 0)
        #expect(abs(back.velocity(at: 0) - 2000) < 1e-9)
        #expect(back.value(at: 0.05) > 0)
        #expect(back.value(at: 0.5) == 0)
    }
}
