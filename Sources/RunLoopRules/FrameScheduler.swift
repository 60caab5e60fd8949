import Geometry

/// When the run loop draws (SPEC §2, §3), as plain values: `run` and `simulate` ask it what to do
/// and tell it what happened; it never reads a clock.
///
/// The rules: draw only when something may have changed (a redraw is owed, the scene is animating
/// or a finger is down, decoded pixels arrived); never while a page flip is in flight (its
/// completion asks again); at most once per refresh period (virtio-gpu and some drivers complete
/// flips faster than vblank); and sample the scene at the vblank the frame will be shown at, never
/// earlier than the frame before.
///
/// While something moves (a finger down, an animation) the frame is sampled as late as it can
/// be (SPEC §13): at `nextVblank - composeBudget`, not as soon as the flip before completed, so
/// a touch that arrives while a frame is drawn or in flight shows at the next vblank, not the one
/// after. The budget is what the recent frames took to compose, plus a margin.
public struct FrameScheduler: Equatable, Sendable {
    public enum Decision: Equatable, Sendable {
        /// Nothing can have changed: sleep until an event.
        case sleep
        /// A flip is in flight: its completion asks again.
        case awaitFlip
        /// Too soon after the last frame: ask again at this time.
        case wait(until: Double)
        /// Sample the scene at this time (the frame's vblank) and draw it if `mustDraw` says so.
        case sample(at: Double)
    }

    /// Seconds between vblanks of the display (1/60 in `simulate`).
    public var refreshPeriod: Double
    /// The time the last frame was sampled at: input is applied no earlier than this, so the
    /// scene's clock never goes back.
    public private(set) var lastSampleTime = -Double.infinity
    /// A frame must reach the screen even if the scene looks the same: nothing was drawn yet, the
    /// library or the settings changed, the screen woke or the display came back.
    public private(set) var redrawOwed = true
    /// Decoded pixels arrived since the last frame: the same scene may look different.
    public private(set) var imagesArrived = false
    private var lastPresent: Double?
    private var lastPresentWasMoving = false
    /// The last frames' compose times (sample to flip queued), newest last.
    private var recentComposeTimes: [Double] = []
    /// The time a late sample was put off to: reached, the frame is sampled whatever the vblank
    /// says then (a timer that fires late must not put it off again).
    private var lateSampleDue: Double?

    /// Compose times the budget looks back over: a quarter of a second at 60 Hz, long enough to
    /// hold the slow frames of a transition, short enough to forget a one-off stall soon.
    public static let composeHistory = 16
    /// Added to the slowest recent compose time: the timer's and the scheduler's lateness in
    /// waking the loop, and a frame a little slower than any of the recent ones.
    public static let composeMargin = 0.0015
    /// The budget's floor: below it the timer's own lateness decides.
    public static let minimumBudget = 0.002

    public init(refreshPeriod: Double) {
        self.refreshPeriod = refreshPeriod
    }

    /// The next frame is drawn even if the scene is unchanged; it stays owed until it is presented
    /// (a flip in flight or the frame-rate limit only postpone it).
    public mutating func forceRedraw() {
        redrawOwed = true
    }

    public mutating func noteImagesArrived() {
        imagesArrived = true
    }

    /// How long before its vblank a moving frame is sampled: the slowest of the last
    /// `composeHistory` compose times plus `composeMargin`, at least `minimumBudget`; a whole
    /// refresh period (sample at once, as a still screen does) until a frame was timed, or when
    /// frames take that long.
    public var composeBudget: Double {
        guard let slowest = recentComposeTimes.max(), slowest.isFinite else { return refreshPeriod }
        return min(refreshPeriod, max(Self.minimumBudget, slowest + Self.composeMargin))
    }

    /// A frame took `seconds` from its sample to its flip being queued.
    public mutating func noteComposeTime(_ seconds: Double) {
        if recentComposeTimes.count == Self.composeHistory { recentComposeTimes.removeFirst() }
        recentComposeTimes.append(max(0, seconds))
    }

    /// The time at which input arriving `now` is applied to the scene.
    public func sceneTime(now: Double) -> Double {
        max(lastSampleTime, now)
    }

    /// What to do now. `moving`: the scene is animating or a finger is down; `nextVblank`: when a
    /// flip queued now would be shown; `nextChange`: when the picture changes by itself (a playing
    /// clip's next frame is due; `ClipTimeline.nextChange`), nil when nothing plays. A still screen
    /// with nothing playing sleeps; one with a clip playing waits for the vblank its next frame is
    /// due at, and draws nothing in between.
    public mutating func decide(now: Double, moving: Bool, flipPending: Bool, nextVblank: Double,
                                nextChange: Double? = nil) -> Decision {
        let changeDue = nextChange.map { max(nextVblank, lastSampleTime) >= $0 } ?? false
        guard redrawOwed || moving || imagesArrived || changeDue else {
            // Woken at `change - refreshPeriod` the next vblank is the first at or after `change`,
            // or one before it: then the wake after that vblank has passed finds the right one.
            lateSampleDue = nil
            guard let change = nextChange, change.isFinite else { return .sleep }
            return .wait(until: max(change - refreshPeriod, nextVblank))
        }
        if flipPending { return .awaitFlip }
        if let last = lastPresent {
            let earliest = last + refreshPeriod * 0.9
            if now < earliest { return .wait(until: earliest) }
        }
        // As late as the budget allows, once a frame was timed: in `simulate` (now == nextVblank)
        // this never waits.
        if moving, !recentComposeTimes.isEmpty {
            let due = lateSampleDue ?? nextVblank - composeBudget
            if now < due {
                lateSampleDue = due
                return .wait(until: due)
            }
        }
        lateSampleDue = nil
        let time = max(nextVblank, lastSampleTime)
        lastSampleTime = time
        return .sample(at: time)
    }

    /// After `.sample`: whether the sampled frame goes to the screen. `sceneChanged`: it differs
    /// from the frame on screen (ignoring its time stamp).
    public func mustDraw(sceneChanged: Bool) -> Bool {
        redrawOwed || imagesArrived || sceneChanged
    }

    /// A frame started at `start` went to the display. Returns the vblanks it missed: refresh
    /// periods between it and the frame before beyond the one it should have taken, counted only
    /// when both were drawn for something moving (a still screen that wakes up missed nothing).
    public mutating func presented(at start: Double, moving: Bool) -> Int {
        var missed = 0
        if moving, lastPresentWasMoving, let last = lastPresent {
            missed = refreshPeriod > 0 ? max(1, Int(flooringSaturating: (start - last) / refreshPeriod)) - 1 : 0
        }
        lastPresent = start
        lastPresentWasMoving = moving
        redrawOwed = false
        imagesArrived = false
        return missed
    }
}
