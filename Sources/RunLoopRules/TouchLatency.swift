/// Touch-to-flip latency's bookkeeping (SPEC §13), as plain values: which touches each frame
/// shows, and when its flip completes, how long each of them waited. It never reads a clock:
/// `run` passes the touch frames' kernel timestamps and the flip events' timestamps (both
/// CLOCK_MONOTONIC), `simulate` the virtual times.
///
/// A touch frame that changed the picture waits for the next frame sampled; that frame takes every
/// touch noted before it was sampled (one that arrives while it is drawn or its flip is in flight
/// belongs to the frame after). When the frame's flip completes, each of its touches gives one
/// latency, so a frame that missed its vblank counts to the flip that showed it. A frame sampled
/// but not drawn (it looks like the one on screen: its touches' changes cancelled out) shows none
/// of them, and they are dropped.
public struct TouchLatency: Equatable, Sendable {
    /// Touches held at most, waiting or in flight: far more than a panel's report rate gives
    /// between two frames. Beyond it the newest are not measured (`overflowed` counts them).
    public static let capacity = 64

    /// Touches noted that no frame has taken yet, by kernel time.
    private var waiting: [Double] = []
    /// The touches of the frame sampled last, until it is queued for a flip or not drawn.
    private var sampled: [Double] = []
    /// Per frame queued for a flip whose event has not come, oldest first: its touches.
    private var inFlight: [[Double]] = []
    /// Touches not measured because `capacity` were held.
    public private(set) var overflowed = 0

    public init() {}

    private var held: Int { waiting.count + sampled.count + inFlight.reduce(0) { $0 + $1.count } }

    /// A touch frame stamped `time` changed the picture.
    public mutating func noteTouch(at time: Double) {
        guard held < Self.capacity else {
            overflowed += 1
            return
        }
        waiting.append(time)
    }

    /// A frame was sampled: it takes the touches noted so far (and those of a frame sampled before
    /// that never reached a flip, whose changes it shows too).
    public mutating func frameSampled() {
        sampled += waiting
        waiting.removeAll(keepingCapacity: true)
    }

    /// The frame sampled last looks like the one on screen and is not drawn: its touches show nothing.
    public mutating func frameNotDrawn() {
        sampled.removeAll(keepingCapacity: true)
    }

    /// The frame sampled last was queued for a flip.
    public mutating func frameQueued() {
        inFlight.append(sampled)
        sampled.removeAll(keepingCapacity: true)
    }

    /// The oldest frame in flight reached the screen at `time`: one latency per touch it shows,
    /// in the order they came.
    public mutating func flipCompleted(at time: Double) -> [Double] {
        guard !inFlight.isEmpty else { return [] }
        return inFlight.removeFirst().map { max(0, time - $0) }
    }

    /// Everything held is forgotten: the screen went off, or the flips in flight will never
    /// complete (the display went away).
    public mutating func discardAll() {
        waiting.removeAll()
        sampled.removeAll()
        inFlight.removeAll()
    }
}
