import Testing
import RunLoopRules

/// The frame loop's pacing with a fake clock: when it draws, waits or sleeps.
@Suite struct FrameSchedulerTests {
    let period = 1.0 / 60

    @Test func theFirstFrameIsOwedAndSampledAtItsVblank() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        #expect(scheduler.decide(now: 10, moving: false, flipPending: false, nextVblank: 10.012) == .sample(at: 10.012))
        #expect(scheduler.mustDraw(sceneChanged: false))
        _ = scheduler.presented(at: 10, moving: false)
        // Drawn once, nothing moves: the loop sleeps until an event.
        #expect(scheduler.decide(now: 11, moving: false, flipPending: false, nextVblank: 11.01) == .sleep)
    }

    @Test func aStillSceneThatSamplesTheSameFrameDrawsNothing() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        _ = scheduler.decide(now: 0, moving: false, flipPending: false, nextVblank: 0)
        _ = scheduler.presented(at: 0, moving: false)
        // A finger resting on the screen: moving, sampled, but the frame is the same.
        #expect(scheduler.decide(now: 1, moving: true, flipPending: false, nextVblank: 1.01) == .sample(at: 1.01))
        #expect(!scheduler.mustDraw(sceneChanged: false))
        #expect(scheduler.mustDraw(sceneChanged: true))
    }

    @Test func neverWhileAFlipIsInFlightAndAtMostOncePerRefreshPeriod() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        _ = scheduler.decide(now: 0, moving: true, flipPending: false, nextVblank: 0.01)
        _ = scheduler.presented(at: 0, moving: true)
        #expect(scheduler.decide(now: 0.005, moving: true, flipPending: true, nextVblank: 0.02) == .awaitFlip)
        // The flip completed early (virtio-gpu): wait until 90% of a period after the last frame.
        #expect(scheduler.decide(now: 0.006, moving: true, flipPending: false, nextVblank: 0.02) == .wait(until: 0.9 * period))
        #expect(scheduler.decide(now: 0.016, moving: true, flipPending: false, nextVblank: 0.03) == .sample(at: 0.03))
    }

    @Test func theSampleTimeNeverGoesBack() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        _ = scheduler.decide(now: 1, moving: true, flipPending: false, nextVblank: 1.05)
        _ = scheduler.presented(at: 1, moving: true)
        // A vblank prediction earlier than the last sample (the display's timing was reset).
        #expect(scheduler.decide(now: 1.02, moving: true, flipPending: false, nextVblank: 1.03) == .sample(at: 1.05))
        #expect(scheduler.sceneTime(now: 1.04) == 1.05)
        #expect(scheduler.sceneTime(now: 2) == 2)
    }

    @Test func aForcedRedrawStaysOwedUntilPresented() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        _ = scheduler.decide(now: 0, moving: false, flipPending: false, nextVblank: 0)
        _ = scheduler.presented(at: 0, moving: false)
        scheduler.forceRedraw()
        // The library changed while a flip was in flight: postponed, not forgotten.
        #expect(scheduler.decide(now: 0.001, moving: false, flipPending: true, nextVblank: 0.016) == .awaitFlip)
        #expect(scheduler.decide(now: 0.005, moving: false, flipPending: false, nextVblank: 0.016) == .wait(until: 0.9 * period))
        #expect(scheduler.decide(now: 0.02, moving: false, flipPending: false, nextVblank: 0.033) == .sample(at: 0.033))
        #expect(scheduler.mustDraw(sceneChanged: false))
        _ = scheduler.presented(at: 0.02, moving: false)
        #expect(scheduler.decide(now: 0.1, moving: false, flipPending: false, nextVblank: 0.116) == .sleep)
    }

    @Test func decodedPixelsRedrawAStillScreenOnce() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        _ = scheduler.decide(now: 0, moving: false, flipPending: false, nextVblank: 0)
        _ = scheduler.presented(at: 0, moving: false)
        scheduler.noteImagesArrived()
        #expect(scheduler.decide(now: 1, moving: false, flipPending: false, nextVblank: 1) == .sample(at: 1))
        #expect(scheduler.mustDraw(sceneChanged: false))
        _ = scheduler.presented(at: 1, moving: false)
        #expect(scheduler.decide(now: 2, moving: false, flipPending: false, nextVblank: 2) == .sleep)
    }

    @Test func missedVblanksCountOnlyBetweenMovingFrames() {
        var scheduler = FrameScheduler(refreshPeriod: 0.01)
        #expect(scheduler.presented(at: 0, moving: false) == 0)
        // The first moving frame after a still screen missed nothing, however long the pause.
        #expect(scheduler.presented(at: 5, moving: true) == 0)
        #expect(scheduler.presented(at: 5.01, moving: true) == 0)
        // 35 ms after the last: three periods passed where one should have.
        #expect(scheduler.presented(at: 5.045, moving: true) == 2)
    }
}

/// SPEC §13: while something moves, the frame is sampled as late as its compose time allows, so a
/// touch that comes while the frame before is drawn or in flight makes the next vblank.
@Suite struct FrameSchedulerLateSampleTests {
    let period = 1.0 / 60

    /// A scheduler that has drawn a moving frame for the vblank at `period`, composed in `compose`.
    func drawing(compose: Double) -> FrameScheduler {
        var scheduler = FrameScheduler(refreshPeriod: period)
        #expect(scheduler.decide(now: 0, moving: true, flipPending: false, nextVblank: period) == .sample(at: period))
        scheduler.noteComposeTime(compose)
        _ = scheduler.presented(at: 0, moving: true)
        return scheduler
    }

    @Test func theBudgetIsTheSlowestRecentFramePlusAMarginWithinSaneBounds() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        // Nothing timed yet: a whole period, which samples at once as before.
        #expect(scheduler.composeBudget == period)
        scheduler.noteComposeTime(0.003)
        scheduler.noteComposeTime(0.005)
        scheduler.noteComposeTime(0.002)
        #expect(abs(scheduler.composeBudget - 0.0065) < 1e-12)
        // The slow frame is forgotten after `composeHistory` faster ones.
        for _ in 0..<FrameScheduler.composeHistory { scheduler.noteComposeTime(0.0001) }
        #expect(scheduler.composeBudget == FrameScheduler.minimumBudget)
        // A frame slower than a period: the budget is the period (sample as soon as allowed).
        scheduler.noteComposeTime(0.040)
        #expect(scheduler.composeBudget == period)
    }

    @Test func aMovingFrameWaitsUntilItsBudgetBeforeTheVblank() {
        var scheduler = drawing(compose: 0.004)
        // The flip landed at the vblank (16.7 ms); the next vblank is at 33.3 ms.
        let vblank = 2 * period, due = 2 * period - 0.0055
        #expect(scheduler.decide(now: period + 0.0005, moving: true, flipPending: false, nextVblank: vblank) == .wait(until: due))
        // A touch at 20 ms wakes the loop: still too early, the same wait.
        #expect(scheduler.decide(now: 0.020, moving: true, flipPending: false, nextVblank: vblank) == .wait(until: due))
        // The timer rings: sampled for that vblank, with the touch at 20 ms in it.
        #expect(scheduler.decide(now: due, moving: true, flipPending: false, nextVblank: vblank) == .sample(at: vblank))
    }

    @Test func aLateTimerSamplesAtOnceForTheVblankThatIsNext() {
        var scheduler = drawing(compose: 0.004)
        let due = 2 * period - 0.0055
        #expect(scheduler.decide(now: period + 0.001, moving: true, flipPending: false, nextVblank: 2 * period) == .wait(until: due))
        // The timer fired after the vblank it aimed at: the one after is next; no second wait.
        #expect(scheduler.decide(now: 2 * period + 0.001, moving: true, flipPending: false, nextVblank: 3 * period)
                == .sample(at: 3 * period))
    }

    @Test func aStillScreenStillDrawsAtOnce() {
        var scheduler = drawing(compose: 0.004)
        _ = scheduler.presented(at: 0.02, moving: false)
        scheduler.forceRedraw()
        // Owed, nothing moves: no reason to wait (no touch to take).
        #expect(scheduler.decide(now: 0.04, moving: false, flipPending: false, nextVblank: 0.05) == .sample(at: 0.05))
    }

    /// `simulate` asks at the vblank itself: it never waits, so its frames stay as they were.
    @Test func simulateNeverWaits() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        for n in 0..<120 {
            let t = Double(n) * period
            #expect(scheduler.decide(now: t, moving: true, flipPending: false, nextVblank: t) == .sample(at: t))
            scheduler.noteComposeTime(0.003)
            _ = scheduler.presented(at: t, moving: true)
        }
    }
}
