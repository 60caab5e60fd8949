import Testing
import RunLoopRules

/// `[kiosk]`'s idle return, slideshow and blanking with a fake clock.
@Suite struct KioskPolicyTests {
    typealias Parameters = KioskPolicy.Parameters

    /// Ticks once a frame from `from` to `to` and collects what happened when.
    func run(_ policy: inout KioskPolicy, from: Double, to: Double) -> [(time: Double, action: KioskPolicy.Action)] {
        var log: [(Double, KioskPolicy.Action)] = []
        var t = from
        while t <= to + 1e-9 {
            for action in policy.tick(at: t) { log.append((t, action)) }
            t += 0.25
        }
        return log
    }

    @Test func theIdleTimeoutReturnsToTheGridOnceUntilTheNextTouch() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 120, idleAction: .grid), now: 0)
        #expect(policy.nextDeadline == 120)
        #expect(policy.tick(at: 119.9).isEmpty)
        #expect(policy.tick(at: 120) == [.returnToGrid])
        #expect(policy.tick(at: 500).isEmpty)
        #expect(policy.nextDeadline == nil)
        #expect(policy.touch(contacts: 1, at: 600) == (.deliver, []))
        #expect(policy.touch(contacts: 0, at: 600.1) == (.deliver, []))
        #expect(policy.nextDeadline == 720.1)
        #expect(policy.tick(at: 720.1) == [.returnToGrid])
    }

    @Test func aFingerRestingOnTheScreenHoldsOffTheIdleAction() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 10), now: 0)
        _ = policy.touch(contacts: 1, at: 1)
        #expect(policy.nextDeadline == nil)
        #expect(policy.tick(at: 100).isEmpty)
        _ = policy.touch(contacts: 0, at: 100)
        #expect(policy.tick(at: 109).isEmpty)
        #expect(policy.tick(at: 110) == [.returnToGrid])
    }

    @Test func theSlideshowStartsAtTheTimeoutAndAdvancesEveryIntervalUntilInput() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 30, idleAction: .slideshow, slideshowInterval: 8), now: 0)
        let slides = run(&policy, from: 0, to: 50).map(\.time)
        #expect(slides == [30, 38, 46])
        #expect(policy.nextDeadline == 54)
        // A key stops it; the next idle period starts it again.
        #expect(policy.key(at: 51) == (.deliver, []))
        #expect(policy.tick(at: 54).isEmpty)
        #expect(policy.nextDeadline == 81)
    }

    @Test func blankingTurnsTheDisplayOffAndTheWakingTouchOpensNothing() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 0, blankAfter: 300), now: 0)
        #expect(policy.nextDeadline == 300)
        #expect(policy.tick(at: 300) == [.blank])
        #expect(policy.isBlanked)
        #expect(policy.nextDeadline == nil)
        #expect(policy.tick(at: 1000).isEmpty)
        // The whole waking touch is swallowed, down to its last finger up...
        #expect(policy.touch(contacts: 1, at: 1000) == (.swallow, [.wake]))
        #expect(policy.touch(contacts: 2, at: 1000.05) == (.swallow, []))
        #expect(policy.touch(contacts: 0, at: 1000.1) == (.swallow, []))
        // ...and the next one is the visitor's.
        #expect(policy.touch(contacts: 1, at: 1001) == (.deliver, []))
        #expect(policy.fingersDown)
        #expect(!policy.isBlanked)
    }

    @Test func aKeyWakesTheScreenAndIsSwallowed() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 0, blankAfter: 5), now: 0)
        #expect(policy.tick(at: 5) == [.blank])
        #expect(policy.key(at: 6) == (.swallow, [.wake]))
        #expect(policy.key(at: 7) == (.deliver, []))
    }

    /// The remote's screen_off: blanked at once, whatever blank_after says, until input.
    @Test func theRemoteBlanksUntilInput() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 10, idleAction: .slideshow), now: 0)
        #expect(policy.blank() == [.blank])
        #expect(policy.isBlanked)
        #expect(policy.blank().isEmpty)
        #expect(policy.nextDeadline == nil)
        #expect(run(&policy, from: 0, to: 60).isEmpty)
        #expect(policy.key(at: 61) == (.swallow, [.wake]))
        #expect(!policy.isBlanked)
    }

    @Test func blankingStopsTheSlideshow() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 10, idleAction: .slideshow, slideshowInterval: 8,
                                                        blankAfter: 30), now: 0)
        let log = run(&policy, from: 0, to: 100)
        #expect(log.map(\.time) == [10, 18, 26, 30])
        #expect(log.last?.action == .blank)
        _ = policy.touch(contacts: 1, at: 100)
        _ = policy.touch(contacts: 0, at: 100.1)
        // Awake again: the idle timer starts over from the waking touch.
        #expect(policy.nextDeadline == 110.1)
    }

    @Test func zeroTimeoutsNeverFire() {
        var policy = KioskPolicy(parameters: Parameters(idleTimeout: 0, idleAction: .slideshow, blankAfter: 0), now: 0)
        #expect(policy.nextDeadline == nil)
        #expect(run(&policy, from: 0, to: 10_000).isEmpty)
    }
}
