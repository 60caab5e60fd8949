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
