import RunLoopRules
import Testing

/// SPEC §13's bookkeeping on a fake 60 Hz clock: vblanks at multiples of `period`; each frame is
/// sampled for one of them, queued, and its flip completes at that vblank (or a later one).
@Suite struct TouchLatencyTests {
    let period = 1.0 / 60

    private func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
    }

    @Test func aTouchCountsToTheFlipThatShowsIt() {
        var latency = TouchLatency()
        latency.noteTouch(at: 0.005)
        latency.frameSampled()
        latency.frameQueued()
        #expect(close(latency.flipCompleted(at: period), [period - 0.005]))
        // Measured once: the next flip has nothing of it.
        latency.frameSampled()
        latency.frameQueued()
        #expect(latency.flipCompleted(at: 2 * period).isEmpty)
    }

    @Test func twoTouchesInOneFrameGiveTwoSamples() {
        var latency = TouchLatency()
        latency.noteTouch(at: 0.002)
        latency.noteTouch(at: 0.010)
        latency.frameSampled()
        latency.frameQueued()
        #expect(close(latency.flipCompleted(at: period), [period - 0.002, period - 0.010]))
    }

    @Test func aDroppedFrameCountsToTheFlipThatActuallyShowedIt() {
        var latency = TouchLatency()
        latency.noteTouch(at: 0.004)
        latency.frameSampled()
        latency.frameQueued()
        // Aimed at the vblank at 16.7 ms, it missed it: its flip completed one period later.
        #expect(close(latency.flipCompleted(at: 2 * period), [2 * period - 0.004]))
    }

    @Test func aTouchThatChangesNothingIsNeverNoted() {
        // The session notes only touch frames that change the picture; nothing noted, no sample,
        // however many frames go out.
        var latency = TouchLatency()
        for n in 1...3 {
            latency.frameSampled()
            latency.frameQueued()
            #expect(latency.flipCompleted(at: Double(n) * period).isEmpty)
        }
    }

    @Test func aTouchWhileAFrameIsDrawnOrInFlightBelongsToTheNextFrame() {
        var latency = TouchLatency()
        latency.noteTouch(at: 0.001)
        latency.frameSampled()
        // Arrives while the frame sampled above is drawn...
        latency.noteTouch(at: 0.008)
        latency.frameQueued()
        // ...and this one while its flip is in flight.
        latency.noteTouch(at: 0.012)
        #expect(close(latency.flipCompleted(at: period), [period - 0.001]))
        latency.frameSampled()
        latency.frameQueued()
        #expect(close(latency.flipCompleted(at: 2 * period), [2 * period - 0.008, 2 * period - 0.012]))
    }

    @Test func aFrameSampledButNotDrawnDropsItsTouches() {
        var latency = TouchLatency()
        // A finger moved and moved back before the frame: it looks like the one on screen.
        latency.noteTouch(at: 0.003)
        latency.noteTouch(at: 0.006)
        latency.frameSampled()
        latency.frameNotDrawn()
        latency.frameSampled()
        latency.frameQueued()
        #expect(latency.flipCompleted(at: 2 * period).isEmpty)
    }

    @Test func aFrameSampledThatNeverReachedAFlipPassesItsTouchesOn() {
        // Drawing failed (present threw): the next frame sampled shows those changes too.
        var latency = TouchLatency()
        latency.noteTouch(at: 0.001)
        latency.frameSampled()
        latency.noteTouch(at: 0.020)
        latency.frameSampled()
        latency.frameQueued()
        #expect(close(latency.flipCompleted(at: 2 * period), [2 * period - 0.001, 2 * period - 0.020]))
    }

    @Test func flipsPairWithTheirFramesInOrderAndDiscardForgetsEverything() {
        var latency = TouchLatency()
        latency.noteTouch(at: 0.001)
        latency.frameSampled()
        latency.frameQueued()
        latency.noteTouch(at: 0.002)
        latency.frameSampled()
        latency.frameQueued()
        #expect(close(latency.flipCompleted(at: 0.010), [0.009]))
        #expect(close(latency.flipCompleted(at: 0.020), [0.018]))
        // A flip nobody waits for (the black frame of a display without DPMS) gives nothing.
        #expect(latency.flipCompleted(at: 0.030).isEmpty)
        latency.noteTouch(at: 0.031)
        latency.frameSampled()
        latency.frameQueued()
        latency.discardAll()
        #expect(latency.flipCompleted(at: 0.040).isEmpty)
    }

    @Test func memoryIsBoundedWhenNoFrameTakesTheTouches() {
        var latency = TouchLatency()
        for n in 0..<(TouchLatency.capacity + 10) { latency.noteTouch(at: Double(n) * 0.001) }
        #expect(latency.overflowed == 10)
        latency.frameSampled()
        latency.frameQueued()
        #expect(latency.flipCompleted(at: 1).count == TouchLatency.capacity)
    }
}
