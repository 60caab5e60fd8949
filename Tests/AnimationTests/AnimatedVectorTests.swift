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
        // Half way along the curve's parameter: time progress 0.3425, value progress 0.5.
        let mid = animation.value(at: 1 + 0.3425 * 0.25)
        #expect(abs(mid[0] - 100) < 1e-3)
        #expect(abs(mid[1] - 0.5) < 1e-5)
        #expect(animation.isFinished(at: 1.25))
        #expect(!animation.isFinished(at: 1.2))
    }
}
