import Geometry

/// One finger on the screen, in screen pixels.
public struct TouchContact: Hashable, Sendable {
    /// Stable for as long as the finger stays down (the evdev tracking id, or 0 for single-touch).
    public var id: Int
    public var position: Point

    public init(id: Int, position: Point) {
        self.id = id
        self.position = position
    }
}

/// The whole state of the touch surface at one instant: every contact that is down, as committed
/// by one SYN_REPORT. An empty `contacts` means all fingers are up.
public struct TouchFrame: Hashable, Sendable {
    /// Seconds on the scene's clock (CLOCK_MONOTONIC in `run`, virtual time in `simulate`).
    public var time: Double
    public var contacts: [TouchContact]

    public init(time: Double, contacts: [TouchContact]) {
        self.time = time
        self.contacts = contacts
    }
}
