import Testing
@testable import Animation

@Suite struct AnimatedVectorTests {
    @Test func springStartsWithTheGivenVelocityInUnitsPerSecond() {
        let animation = AnimatedVector.spring(from: [100, 0], to: [300, 50], velocity: [1000, -100],
                                              startTime: 2, duration: 0.37, dampingRatio: 0.9)
        let v = animation.velocity(at: 2)
        #expect(abs(v[0] - 1000) < 1e-6)
        #expect(abs(v[1] - -100) < 1e-6)
        #expect(animation.value(at: 2) == [100, 0])
        #expect(animation.value(at: 2.37) == [300, 50])
    }

    @Test func unitVelocityIsClipped() {
        #expect(AnimatedVector.unitVelocity(10_000, distance: 10) == 35)
        #expect(AnimatedVector.unitVelocity(-10_000, distance: 10) == -35)
        #expect(AnimatedVector.unitVelocity(500, distance: 0) == 0)
        #expect(AnimatedVector.unitVelocity(100, distance: -200) == -0.5)
    }

    @Test func retargetKeepsValueAndVelocityContinuous() {
        let first = AnimatedVector(from: [0, 10], to: [100, 20], startTime: 0,
                                   curve: Spring(duration: 0.5, dampingRatio: 0.8))
        let t = 0.12
        let second = first.retargeted(to: [-50, 0], at: t, duration: 0.45, dampingRatio: 0.75)
        for i in 0..<2 {
            #expect(abs(second.value(at: t)[i] - first.value(at: t)[i]) < 1e-9)
            #expect(abs(second.velocity(at: t)[i] - first.velocity(at: t)[i]) < 1e-6)
        }
        #expect(second.value(at: t + 0.45) == [-50, 0])
    }

    @Test func bezierAnimationInterpolatesComponents() {
        let animation = AnimatedVector(from: [0, 1], to: [200, 0], startTime: 1,
                                       curve: BezierTiming(.easeOut, duration: 0.25))
        let mid = animation.value(at: 1 + 0.56 * 0.25)
        #expect(abs(mid[0] - 175) < 1e-3)
        #expect(abs(mid[1] - 0.125) < 1e-5)
        #expect(animation.isFinished(at: 1.25))
        #expect(!animation.isFinished(at: 1.2))
    }
}

@Suite struct ScrollPhysicsTests {
    @Test func decelerationMultipliesVelocityByTheRateEveryMillisecond() {
        let coast = Deceleration(position: 100, velocity: 2000, time: 1, rate: 0.998)
        var p = 100.0, v = 2000.0
        // Step the rule itself one millisecond at a time and compare with the closed form.
        for ms in 1...500 {
            p += v * (1 - 0.998) / (-log(0.998)) / 1000 * (0.998 - 1) / (0.998 - 1)  // exact integral of one step
            v *= 0.998
            if ms % 100 == 0 {
                #expect(abs(coast.velocity(at: 1 + Double(ms) / 1000) - v) < 1e-6 * 2000)
            }
        }
        #expect(abs(coast.position(at: 1.5) - p) < 1e-6 * 1000)
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
