/// A playing clip's clock (SPEC §12), as plain values: which decoded frame the screen shows at a
/// sample time, when that changes next, and which frames were passed over unseen.
///
/// The rule: at sample time t (the vblank the frame is shown at) the screen shows the frame whose
/// presentation time is the latest at or before t - `start`, modulo the clip's duration when it
/// loops. A 30 fps clip on a 60 Hz grid so shows each frame for two vblanks, a 24 fps one in 3:2
/// cadence, and the clip never runs faster or slower than its own clock. Frames are known only as
/// they are decoded: of those decoded, the latest one due is shown; the ones before it that were
/// never shown are dropped (decoded too late, or a clip faster than the display).
public struct ClipTimeline: Equatable, Sendable {
    /// A frame's place on the timeline: its pass through the clip (0 the first, each loop one
    /// more) and its presentation time in the clip (seconds from its first frame).
    public struct Stamp: Equatable, Comparable, Sendable {
        public var lap: Int
        public var time: Double

        public init(lap: Int, time: Double) {
            self.lap = lap
            self.time = time
        }

        public static func < (a: Stamp, b: Stamp) -> Bool {
            a.lap != b.lap ? a.lap < b.lap : a.time < b.time
        }
    }

    /// What one sample shows.
    public struct Pick: Equatable, Sendable {
        /// The position in the frames given of the frame shown.
        public var shown: Int
        /// Frames before it, given and never shown: passed over.
        public var dropped: Int

        public init(shown: Int, dropped: Int) {
            self.shown = shown
            self.dropped = dropped
        }
    }

    /// Sample times round in floating point (n / 60 against k / 30): a frame due within this much
    /// after the sample time counts as due. `exact` for `simulate`'s ideal grid; `run` allows for
    /// the jitter of the display's flip timestamps (`vblankTolerance`).
    public static let exact = 1e-6

    /// The scene time the clip's first frame was shown at.
    public let start: Double
    /// The length of one pass when the clip loops (seconds).
    public var duration: Double
    public let loops: Bool
    public let tolerance: Double

    public init(start: Double, duration: Double, loops: Bool, tolerance: Double = ClipTimeline.exact) {
        self.start = start
        self.duration = duration
        self.loops = loops
        self.tolerance = max(0, tolerance)
    }

    /// A tenth of a refresh period: real flip timestamps wander by microseconds around the ideal
    /// vblank grid, and a frame due exactly at a vblank must not slip to the next one.
    public static func vblankTolerance(refreshPeriod: Double) -> Double {
        refreshPeriod.isFinite && refreshPeriod > 0 ? refreshPeriod / 10 : exact
    }

    /// Whether the clip wraps: it loops and its duration is usable.
    private var wraps: Bool { loops && duration.isFinite && duration > 0 }

    /// Where the clip is at scene time `t`: the pass and the time within it. Before the start, the
    /// start; without looping, one pass that goes on past the end.
    public func position(at t: Double) -> Stamp {
        let elapsed = max(0, t - start + tolerance)
        guard wraps, elapsed.isFinite else { return Stamp(lap: 0, time: max(0, elapsed - tolerance)) }
        let lap = (elapsed / duration).rounded(.down)
        let laps = lap < Double(Int.max / 2) ? Int(lap) : Int.max / 2
        return Stamp(lap: laps, time: max(0, elapsed - lap * duration - tolerance))
    }

    /// The scene time a frame stamped `stamp` is due at.
    public func dueTime(of stamp: Stamp) -> Double {
        start + (wraps ? Double(stamp.lap) * duration : 0) + stamp.time
    }

    /// Whether `stamp` is due at `t`.
    public func isDue(_ stamp: Stamp, at t: Double) -> Bool {
        dueTime(of: stamp) <= t + tolerance
    }

    /// Which of `frames` (decoded, in presentation order; the first `shownCount` of them, 0 or 1,
    /// is the frame on screen) the screen shows at `t`: the latest due. Nil when none is due, or
    /// only the one already shown is: the screen stays as it is.
    public func pick(_ frames: [Stamp], shownCount: Int, at t: Double) -> Pick? {
        var latest: Int?
        for (i, frame) in frames.enumerated() {
            guard isDue(frame, at: t) else { break }
            latest = i
        }
        let shown = min(max(0, shownCount), frames.count)
        guard let latest, latest >= shown else { return nil }
        return Pick(shown: latest, dropped: latest - shown)
    }

    /// When the screen next changes by itself: the due time of the first frame after the one
    /// shown, if it is decoded (else the decoder's completion asks again).
    public func nextChange(_ frames: [Stamp], shownCount: Int) -> Double? {
        let next = min(max(0, shownCount), frames.count)
        return next < frames.count ? dueTime(of: frames[next]) - tolerance : nil
    }
}
