import Testing
import RunLoopRules

/// A playing clip's clock on the display's vblanks (SPEC §12), in virtual time.
@Suite struct ClipTimelineTests {
    let period = 1.0 / 60

    /// Plays `frameCount` frames at `fps` from `start` over the vblanks `start + n * period`, the
    /// decoder always ahead (every frame decoded when asked): for each vblank, the frame shown.
    func shownFrames(fps: Double, frameCount: Int, start: Double, vblanks: Int, loops: Bool = false,
                     duration: Double? = nil) -> (shown: [Int], dropped: Int) {
        let timeline = ClipTimeline(start: start, duration: duration ?? Double(frameCount) / fps, loops: loops)
        var ring: [ClipTimeline.Stamp] = []
        var produced = 0
        var shownCount = 0
        var shown: [Int] = []
        var dropped = 0
        var current = -1
        for n in 0..<vblanks {
            let t = start + Double(n) / 60
            // The ring refilled ahead: four frames, as the player's.
            while ring.count < 4 {
                let lap = loops ? produced / frameCount : 0
                let k = loops ? produced % frameCount : produced
                if !loops, produced >= frameCount { break }
                ring.append(ClipTimeline.Stamp(lap: lap, time: Double(k) / fps))
                produced += 1
            }
            if let pick = timeline.pick(ring, shownCount: shownCount, at: t) {
                dropped += pick.dropped
                let passed = ring.count
                ring.removeFirst(pick.shown)
                shownCount = 1
                current = (produced - passed) + pick.shown
            }
            shown.append(current)
        }
        return (shown, dropped)
    }

    /// How many vblanks each frame stayed on screen, in order.
    func runs(_ shown: [Int]) -> [Int] {
        var runs: [Int] = []
        var last: Int?
        for frame in shown {
            if frame == last { runs[runs.count - 1] += 1 } else { runs.append(1) }
            last = frame
        }
        return runs
    }

    @Test func thirtyFramesASecondShowEachFrameForTwoVblanks() {
        // The clip starts at a vblank of a run long under way (t = 1000.5): rounding stays exact.
        let (shown, dropped) = shownFrames(fps: 30, frameCount: 90, start: 1000.5, vblanks: 180)
        #expect(runs(shown) == Array(repeating: 2, count: 90))
        #expect(shown == (0..<180).map { $0 / 2 })
        #expect(dropped == 0)
    }

    @Test func twentyFourFramesASecondGetTheThreeTwoCadence() {
        let (shown, dropped) = shownFrames(fps: 24, frameCount: 24, start: 2.0, vblanks: 60)
        #expect(runs(shown) == Array([[3, 2], [3, 2], [3, 2], [3, 2], [3, 2], [3, 2],
                                      [3, 2], [3, 2], [3, 2], [3, 2], [3, 2], [3, 2]].joined()))
        #expect(dropped == 0)
    }

    @Test func neverFasterOrSlowerThanTheClipsClockOnAverage() {
        for fps in [23.976, 24, 25, 29.97, 30, 50, 59.94, 60, 120] {
            let seconds = 10.0
            let count = Int(fps * seconds) + 2
            let (shown, dropped) = shownFrames(fps: fps, frameCount: count, start: 7.25, vblanks: Int(seconds * 60))
            for (n, frame) in shown.enumerated() {
                // The frame on screen is the one whose time is the latest at or before the vblank's.
                let elapsed = Double(n) / 60
                #expect(Double(frame) / fps <= elapsed + 1e-6, "\(fps) fps, vblank \(n)")
                #expect(Double(frame + 1) / fps > elapsed + 1e-6, "\(fps) fps, vblank \(n)")
            }
            // Faster than the display: every frame that cannot get a vblank is dropped, and counted.
            #expect(dropped == max(0, shown.last! + 1 - Set(shown).count), "\(fps) fps")
            #expect(fps <= 60 ? dropped == 0 : dropped > 0, "\(fps) fps")
        }
    }

    @Test func aLoopWrapsToItsFirstFrame() {
        // One second of 30 fps, looping, sampled over 2.5 s.
        let (shown, dropped) = shownFrames(fps: 30, frameCount: 30, start: 0.5, vblanks: 150, loops: true)
        #expect(dropped == 0)
        // The running count goes on past the end; within each pass the frames start again at 0.
        #expect(runs(shown) == Array(repeating: 2, count: 75))
        let timeline = ClipTimeline(start: 0.5, duration: 1, loops: true)
        #expect(timeline.position(at: 1.5) == ClipTimeline.Stamp(lap: 1, time: 0))
        #expect(timeline.position(at: 3.0).lap == 2 && abs(timeline.position(at: 3.0).time - 0.5) < 1e-9)
        #expect(timeline.dueTime(of: ClipTimeline.Stamp(lap: 2, time: 0.5)) == 3.0)
        // The last frame of a pass gives way to the next pass's first at the duration.
        let ring = [ClipTimeline.Stamp(lap: 0, time: 29.0 / 30), ClipTimeline.Stamp(lap: 1, time: 0)]
        #expect(timeline.pick(ring, shownCount: 1, at: 1.49) == nil)
        #expect(timeline.pick(ring, shownCount: 1, at: 1.5) == ClipTimeline.Pick(shown: 1, dropped: 0))
    }

    @Test func withoutALoopTheLastFrameStays() {
        let timeline = ClipTimeline(start: 0, duration: 1, loops: false)
        #expect(timeline.position(at: 5) == ClipTimeline.Stamp(lap: 0, time: 5))
        let ring = [ClipTimeline.Stamp(lap: 0, time: 29.0 / 30)]
        #expect(timeline.pick(ring, shownCount: 1, at: 5) == nil)
        #expect(timeline.nextChange(ring, shownCount: 1) == nil)
    }

    @Test func aLateDecoderDropsTheFramesThatArriveAfterTheirSuccessorIsDue() {
        let timeline = ClipTimeline(start: 10, duration: 3, loops: false)
        // Frame 3 is on screen; the decoder stalled, then delivered 4...12 at once at 0.3 s.
        let ring = (3...12).map { ClipTimeline.Stamp(lap: 0, time: Double($0) / 30) }
        // 9 is the latest due (0.3 s); 4 to 8 were never shown.
        #expect(timeline.pick(ring, shownCount: 1, at: 10.3) == ClipTimeline.Pick(shown: 6, dropped: 5))
        // Only frames not due yet: the screen stays as it is.
        #expect(timeline.pick(Array(ring.suffix(3)), shownCount: 0, at: 10.0) == nil)
        // Nothing shown yet: the latest due is shown and nothing was passed over.
        #expect(timeline.pick(ring, shownCount: 0, at: 10.1) == ClipTimeline.Pick(shown: 0, dropped: 0))
    }

    @Test func theNextChangeIsTheNextFramesDueTime() {
        let timeline = ClipTimeline(start: 4, duration: 3, loops: true)
        let ring = [ClipTimeline.Stamp(lap: 0, time: 0.5), ClipTimeline.Stamp(lap: 0, time: 0.54)]
        #expect(abs(timeline.nextChange(ring, shownCount: 1)! - 4.54) < 1e-5)
        #expect(timeline.nextChange(ring, shownCount: 0)! < 4.5)
        #expect(timeline.nextChange([ring[0]], shownCount: 1) == nil)
    }

    @Test func realFlipTimestampsThatWanderStillShowThirtyFramesTwoVblanksEach() {
        // Flip times a few microseconds off the ideal grid (the kernel's timestamps).
        let tolerance = ClipTimeline.vblankTolerance(refreshPeriod: period)
        let timeline = ClipTimeline(start: 100, duration: 10, loops: false, tolerance: tolerance)
        var shownIndex = 0
        var counts = [Int](repeating: 0, count: 30)
        for n in 0..<60 {
            let jitter = Double((n * 7919) % 11 - 5) * 1e-6
            let t = 100 + Double(n) * period + jitter
            let ring = (shownIndex..<min(shownIndex + 4, 40)).map { ClipTimeline.Stamp(lap: 0, time: Double($0) / 30) }
            if let pick = timeline.pick(ring, shownCount: 1, at: t) { shownIndex += pick.shown }
            counts[shownIndex] += 1
        }
        #expect(counts == Array(repeating: 2, count: 30))
    }

    @Test func theSchedulerWaitsForTheVblankTheNextFrameIsDueAt() {
        var scheduler = FrameScheduler(refreshPeriod: period)
        _ = scheduler.decide(now: 0, moving: false, flipPending: false, nextVblank: 0)
        _ = scheduler.presented(at: 0, moving: false)
        // Nothing plays: a still screen sleeps.
        #expect(scheduler.decide(now: 0.001, moving: false, flipPending: false, nextVblank: period) == .sleep)
        // The next frame is due two vblanks on: wake a period before it.
        let due = 2 * period
        #expect(scheduler.decide(now: 0.001, moving: false, flipPending: false, nextVblank: period, nextChange: due)
                == .wait(until: due - period))
        // At the vblank it is due: sampled there.
        #expect(scheduler.decide(now: period + 0.001, moving: false, flipPending: false, nextVblank: due, nextChange: due)
                == .sample(at: due))
        #expect(!scheduler.mustDraw(sceneChanged: false))
        // Due between two vblanks: the wait ends no earlier than the vblank before it, whose
        // sample is too soon; the next wake finds the vblank after it.
        let between = 3.5 * period
        #expect(scheduler.decide(now: 2 * period + 0.001, moving: false, flipPending: false, nextVblank: 3 * period,
                                 nextChange: between) == .wait(until: 3 * period))
        #expect(scheduler.decide(now: 3 * period + 0.001, moving: false, flipPending: false, nextVblank: 4 * period,
                                 nextChange: between) == .sample(at: 4 * period))
    }
}
