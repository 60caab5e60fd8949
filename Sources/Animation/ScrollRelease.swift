/// One axis of scrolled content after the finger let go (SPEC §1: the grid, a zoomed photo in the
/// pager). Inside `lower...upper` it keeps the finger's velocity and decelerates (UIScrollView's
/// rate per millisecond); let go past an edge (rubber-banded there by the drag), or coasting over
/// one, it springs back to that edge on the bounce spring, starting at the speed it had. A pure
/// function of time, so a frame can sample it at any instant.
public struct ScrollRelease: Equatable, Sendable {
    public let lower: Double
    public let upper: Double
    public let startTime: Double
    private let coast: Deceleration?
    /// Starts at the release (let go past an edge) or where the coast crosses an edge.
    private let back: SpringBack?

    /// `position` is where the content is shown at `time` (past an edge: rubber-banded with
    /// `dimension` as d) and `velocity` the finger's, in the same units per second.
    public init(position: Double, velocity: Double, time: Double, lower: Double, upper: Double,
                decelerationRate: Double, bounce: Spring, dimension: Double) {
        self.lower = lower
        self.upper = max(upper, lower)
        startTime = time
        if position < self.lower || position > self.upper {
            // The drag rubber-banded it: the content moved at the finger's speed times the band's slope.
            let edge = position < self.lower ? self.lower : self.upper
            let raw = RubberBand.unclamp(position, lower: self.lower, upper: self.upper, dimension: dimension)
            let shownVelocity = velocity * RubberBand.slope(raw - edge, dimension: dimension)
            coast = nil
            back = SpringBack(from: position, to: edge, velocity: shownVelocity, time: time,
                              duration: bounce.duration, dampingRatio: bounce.dampingRatio)
            return
        }
        let coast = Deceleration(position: position, velocity: velocity, time: time, rate: decelerationRate)
        self.coast = coast
        let end = coast.position(at: coast.endTime)
        let edge: Double? = end < self.lower ? self.lower : end > self.upper ? self.upper : nil
        if let edge, let crossing = coast.time(reaching: edge) {
            // Ran past the edge: keep the speed it had there and spring back from the edge.
            back = SpringBack(from: coast.position(at: crossing), to: edge, velocity: coast.velocity(at: crossing),
                              time: crossing, duration: bounce.duration, dampingRatio: bounce.dampingRatio)
        } else {
            back = nil
        }
    }

    public var endTime: Double { back?.endTime ?? coast?.endTime ?? startTime }

    /// True once it rests (at once if the release was too slow to coast and inside the edges).
    public func isFinished(at time: Double) -> Bool { time >= endTime }

    public func position(at time: Double) -> Double {
        if let back, coast == nil || time >= back.startTime { return back.value(at: time) }
        return coast?.position(at: time) ?? lower
    }
}
