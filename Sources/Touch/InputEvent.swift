/// One evdev event, as in the kernel's `struct input_event`, with its timestamp in seconds.
public struct InputEvent: Hashable, Sendable {
    /// Seconds: the kernel's timeval (CLOCK_MONOTONIC when `run` asks for it), or a recording's
    /// timestamp, or simulation time after `rebased(_:firstEventAt:)`.
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// The events moved onto another clock, keeping their spacing: the first one happens at
    /// `start` and every later one at `start + (its time - the first one's time)`. `simulate`
    /// replays a recording with `start` 0.5 s so its first frames show the scene at rest. Time
    /// never goes back: an event stamped before the one preceding it keeps that one's time.
    public static func rebased(_ events: [InputEvent], firstEventAt start: Double = 0.5) -> [InputEvent] {
        guard let first = events.first?.time else { return [] }
        var latest = start
        return events.map { event in
            var moved = event
            moved.time = max(latest, start + (event.time - first))
            latest = moved.time
            return moved
        }
    }
}
