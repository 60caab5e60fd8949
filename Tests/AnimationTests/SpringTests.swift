import Testing
@testable import Animation

@Suite struct SpringTests {
    @Test func underdampedMatchesTheSpecCheckValues() {
        let spring = Spring(duration: 0.5, dampingRatio: 0.8)
        #expect(abs(spring.naturalFrequency - 17.269) < 1e-3)
        #expect(abs(spring.value(at: 0.1) - 0.58383) < 1e-4)
        #expect(abs(spring.value(at: 0.2) - 0.95657) < 1e-4)
        #expect(abs(spring.value(at: 0.3) - 1.01514) < 1e-4)
        #expect(abs(spring.value(at: 0.4) - 1.00662) < 1e-4)
        #expect(spring.value(at: 0.5) == 1)
        #expect(spring.value(at: 0) == 0)
    }

    @Test func criticallyDampedFollowsItsClosedForm() {
        // x = 1 - (1 + w0 t) e^(-w0 t), w0 = ln(1000) / 0.35, by hand.
        let spring = Spring(duration: 0.35, dampingRatio: 1)
        #expect(abs(spring.value(at: 0.05) - 0.259393) < 1e-5)
        #expect(abs(spring.value(at: 0.1) - 0.586813) < 1e-5)
        #expect(abs(spring.value(at: 0.2) - 0.904483) < 1e-5)
        // With v0 = 3: x = 1 + (-1 + (3 - w0) t) e^(-w0 t).
        let pushed = Spring(duration: 0.35, dampingRatio: 1, initialVelocity: 3)
        #expect(abs(pushed.value(at: 0.1) - 0.628498) < 1e-5)
        #expect(abs(pushed.velocity(at: 0) - 3) < 1e-9)
    }

    @Test func overdampedFollowsItsClosedForm() {
        // Two real roots r = -w0 (2 ∓ √3), w0 = ln(1000) / 0.5 (z' = 1).
        let spring = Spring(duration: 0.5, dampingRatio: 2)
        #expect(abs(spring.value(at: 0.05) - 0.110565) < 1e-5)
        #expect(abs(spring.value(at: 0.1) - 0.256421) < 1e-5)
        #expect(abs(spring.value(at: 0.3) - 0.645147) < 1e-5)
        #expect(spring.value(at: 0.5) == 1)
    }

    @Test(arguments: [0.5, 0.75, 1.0, 1.5])
    func velocityIsTheDerivativeOfValue(dampingRatio: Double) {
        let spring = Spring(duration: 0.45, dampingRatio: dampingRatio, initialVelocity: -2)
        #expect(abs(spring.velocity(at: 0) - -2) < 1e-9)
        let h = 1e-6
        for t in stride(from: 0.01, to: 0.44, by: 0.03) {
            let numeric = (spring.value(at: t + h) - spring.value(at: t - h)) / (2 * h)
            #expect(abs(numeric - spring.velocity(at: t)) < 1e-4)
        }
    }

    @Test func endsExactlyAtItsDurationAtRest() {
        let spring = Spring(duration: 0.37, dampingRatio: 0.9, initialVelocity: 5)
        #expect(abs(spring.value(at: 0.3699) - 1) < 0.01)
        #expect(spring.value(at: 0.37) == 1)
        #expect(spring.velocity(at: 0.37) == 0)
        #expect(spring.value(at: 3) == 1)
    }
}

@Suite struct CubicBezierTests {
    @Test func endPointsAreFixed() {
        for curve in [CubicBezier.easeOut, .easeInOut, .easeIn, .linear] {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
        }
    }

    @Test func isMonotonic() {
        for curve in [CubicBezier.easeOut, .easeInOut] {
            var previous = 0.0
            for i in 1...200 {
                let y = curve.value(at: Double(i) / 200)
                #expect(y >= previous)
                previous = y
            }
        }
    }

    @Test func easeInOutIsSymmetricAboutTheMiddle() {
        #expect(abs(CubicBezier.easeInOut.value(at: 0.5) - 0.5) < 1e-6)
        #expect(abs(CubicBezier.easeInOut.value(at: 0.2) + CubicBezier.easeInOut.value(at: 0.8) - 1) < 1e-6)
    }

    @Test func easeOutMidpointMatchesTheCurve() {
        // Parameter s = 0.5 of (0,0,0.58,1): x = 3*0.125*0.58 + 0.125 = 0.3425, y = 3*0.125 + 0.125 = 0.5.
        #expect(abs(CubicBezier.easeOut.value(at: 0.3425) - 0.5) < 1e-5)
        #expect(CubicBezier.easeOut.value(at: 0.5) > 0.5)
    }

    @Test func timingVelocityIsTheDerivative() {
        let timing = BezierTiming(.easeOut, duration: 0.25)
        let h = 1e-6
        for t in stride(from: 0.01, to: 0.24, by: 0.02) {
            let numeric = (timing.value(at: t + h) - timing.value(at: t - h)) / (2 * h)
            #expect(abs(numeric - timing.velocity(at: t)) < 1e-3 * max(1, numeric))
        }
        #expect(timing.value(at: 0.25) == 1)
    }
}
