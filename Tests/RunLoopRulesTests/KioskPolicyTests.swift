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

/// Opening hours in the policy, with a fake clock: monotonic time t from 0 and the wall clock at
/// `start` + t in Europe/Berlin.
@Suite struct KioskPolicyOpeningHoursTests {
    typealias Parameters = KioskPolicy.Parameters

    func policy(_ weekly: [String], idleAction: KioskPolicy.IdleAction = .grid, idleTimeout: Double = 60,
                blankAfter: Double = 0, touchWakes: Double = 120) throws -> KioskPolicy {
        KioskPolicy(parameters: Parameters(idleTimeout: idleTimeout, idleAction: idleAction, blankAfter: blankAfter,
                                           openingHours: try hours(weekly), touchWakes: touchWakes),
                    now: 0, zone: berlin)
    }

    @Test func closingTurnsTheScreenOffAndSaysWhenItOpensOpeningTurnsItOn() throws {
        let start = Double(inBerlin("2026-11-27T17:59:00"))  // a Friday
        var policy = try self.policy(["mon-fri 09:00-18:00"])
        #expect(policy.tick(at: 0, wall: start).isEmpty)
        #expect(policy.isScreenOn)
        #expect(policy.nextScheduleChange == inBerlin("2026-11-27T18:00:00"))
        #expect(policy.tick(at: 59, wall: start + 59).isEmpty)
        #expect(policy.tick(at: 60, wall: start + 60) == [.close])
        #expect(!policy.isScreenOn)
        #expect(policy.closedStatus(wall: start + 60) == "closed until Mon 09:00")
        // Nothing on its own while closed: no idle return, no deadline but the wall clock's.
        #expect(policy.nextDeadline == nil)
        #expect(policy.tick(at: 10_000, wall: start + 10_000).isEmpty)
        let monday = Double(inBerlin("2026-11-30T09:00:00"))
        #expect(policy.nextScheduleChange == Int(monday))
        #expect(policy.tick(at: monday - start, wall: monday) == [.open])
        #expect(policy.isScreenOn)
        #expect(policy.closedStatus(wall: monday) == nil)
        // The idle timer starts at opening.
        #expect(policy.nextDeadline == monday - start + 60)
    }

    @Test func closedAtStartClosesAtTheFirstTick() throws {
        var policy = try self.policy(["mon-fri 09:00-18:00"])
        #expect(policy.tick(at: 0, wall: Double(inBerlin("2026-11-28T12:00:00"))) == [.close])
        #expect(policy.closedStatus(wall: Double(inBerlin("2026-11-28T12:00:00"))) == "closed until Mon 09:00")
    }

    @Test func aTouchWhileClosedWakesTheScreenForTouchWakesSecondsAndOpensNothing() throws {
        let start = Double(inBerlin("2026-11-28T12:00:00"))
        var policy = try self.policy(["mon-fri 09:00-18:00"], touchWakes: 30)
        #expect(policy.tick(at: 0, wall: start) == [.close])
        // The waking touch is swallowed down to its last finger up.
        #expect(policy.touch(contacts: 1, at: 100) == (.swallow, [.wake]))
        #expect(policy.isScreenOn)
        #expect(policy.touch(contacts: 0, at: 100.1) == (.swallow, []))
        // The visitor's next touch goes to the scene and keeps the screen on.
        #expect(policy.touch(contacts: 1, at: 110) == (.deliver, []))
        #expect(policy.tick(at: 200, wall: start + 200).isEmpty)
        #expect(policy.touch(contacts: 0, at: 200) == (.deliver, []))
        #expect(policy.nextDeadline == 230)
        #expect(policy.tick(at: 229.9, wall: start + 229.9).isEmpty)
        #expect(policy.tick(at: 230, wall: start + 230) == [.close])
        #expect(!policy.isScreenOn)
        #expect(policy.nextDeadline == nil)
    }

    @Test func withTouchWakesZeroATouchWhileClosedDoesNothing() throws {
        let start = Double(inBerlin("2026-11-28T12:00:00"))
        var policy = try self.policy(["mon-fri 09:00-18:00"], touchWakes: 0)
        #expect(policy.tick(at: 0, wall: start) == [.close])
        #expect(policy.touch(contacts: 1, at: 5) == (.swallow, []))
        #expect(policy.touch(contacts: 0, at: 5.1) == (.swallow, []))
        #expect(policy.key(at: 6) == (.swallow, []))
        #expect(!policy.isScreenOn)
    }

    @Test func openingStartsTheSlideshowWhenThatIsTheIdleAction() throws {
        let start = Double(inBerlin("2026-11-30T08:59:59"))
        var policy = try self.policy(["mon-fri 09:00-18:00"], idleAction: .slideshow)
        #expect(policy.tick(at: 0, wall: start) == [.close])
        #expect(policy.tick(at: 1, wall: start + 1) == [.open, .nextSlide])
    }

    @Test func aClockThatJumpsIsReadAgainAtTheNextTick() throws {
        var policy = try self.policy(["mon-fri 09:00-18:00"])
        // 1970 on a board without a real-time clock: closed (a Thursday night).
        #expect(policy.tick(at: 0, wall: 0) == [.close])
        // NTP sets the clock to a Wednesday noon: open at once.
        #expect(policy.tick(at: 5, wall: Double(inBerlin("2026-11-25T12:00:00"))) == [.open])
        #expect(policy.nextScheduleChange == inBerlin("2026-11-25T18:00:00"))
    }

    @Test func blankingAndClosingDoNotFightOverTheDisplay() throws {
        let start = Double(inBerlin("2026-11-27T17:00:00"))
        var policy = try self.policy(["mon-fri 09:00-18:00"], idleTimeout: 0, blankAfter: 600)
        #expect(policy.tick(at: 600, wall: start + 600) == [.blank])
        // Closing while blanked: closed, and opening on Monday comes out of both.
        #expect(policy.tick(at: 3600, wall: start + 3600) == [.close])
        let monday = Double(inBerlin("2026-11-30T09:00:00"))
        #expect(policy.tick(at: monday - start, wall: monday) == [.open])
        #expect(policy.isScreenOn)
    }
}
