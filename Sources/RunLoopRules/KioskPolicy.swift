/// What the kiosk does on its own when nobody touches it (SPEC §5 `[kiosk]`), as plain values: the
/// run loop hands it touches, keys and the time, and carries out the actions it returns. `run` and
/// `simulate` share it, so a recording exercises the idle return and the slideshow too.
///
/// The rules:
/// - `idleTimeout` seconds after the last input, with no finger down, `idleAction` happens once:
///   back to the grid, or a slideshow that shows the next photo at once and every
///   `slideshowInterval` seconds after, until the next input.
/// - `blankAfter` seconds after the last input the display goes off (nothing is drawn); the first
///   touch or key turns it on again, and that whole touch (down to the last finger up) or key only
///   wakes it: it opens nothing.
public struct KioskPolicy: Equatable, Sendable {
    public enum IdleAction: Equatable, Sendable {
        case grid, slideshow, none
    }

    public struct Parameters: Equatable, Sendable {
        /// Seconds without input before `idleAction`; 0: never.
        public var idleTimeout: Double
        public var idleAction: IdleAction
        public var slideshowInterval: Double
        /// Seconds without input before the display goes off; 0: never.
        public var blankAfter: Double

        public init(idleTimeout: Double = 120, idleAction: IdleAction = .grid, slideshowInterval: Double = 8,
                    blankAfter: Double = 0) {
            self.idleTimeout = idleTimeout
            self.idleAction = idleAction
            self.slideshowInterval = slideshowInterval
            self.blankAfter = blankAfter
        }
    }

    public enum Action: Equatable, Sendable {
        /// Zoom the open photo back into the grid and scroll it to its first row.
        case returnToGrid
        /// Show the next photo (the slideshow).
        case nextSlide
        /// Turn the display off and stop drawing.
        case blank
        /// Turn the display on and draw the screen again.
        case wake
    }

    /// Whether an input goes on to the scene.
    public enum Verdict: Equatable, Sendable {
        case deliver
        /// It only woke the screen (or belongs to the touch that did).
        case swallow
    }

    public var parameters: Parameters
    public private(set) var isBlanked = false
    public private(set) var fingersDown = false
    private var lastInput: Double
    private var swallowingTouch = false
    private var idleActionDone = false
    private var nextSlide: Double?

    /// `now`: the start counts as the last input.
    public init(parameters: Parameters, now: Double) {
        self.parameters = parameters
        lastInput = now
    }

    /// A touch frame with `contacts` fingers down arrived at `now`.
    public mutating func touch(contacts: Int, at now: Double) -> (Verdict, [Action]) {
        let actions = input(at: now)
        if !actions.isEmpty || swallowingTouch {
            // The touch that woke the screen is swallowed down to its last finger up.
            swallowingTouch = contacts > 0
            fingersDown = false
            return (.swallow, actions)
        }
        fingersDown = contacts > 0
        return (.deliver, [])
    }

    /// A key (Esc, Back) was pressed at `now`.
    public mutating func key(at now: Double) -> (Verdict, [Action]) {
        let actions = input(at: now)
        return (actions.isEmpty ? .deliver : .swallow, actions)
    }

    private mutating func input(at now: Double) -> [Action] {
        lastInput = now
        idleActionDone = false
        nextSlide = nil
        guard isBlanked else { return [] }
        isBlanked = false
        return [.wake]
    }

    /// The remote's "screen_off": blanked as after `blankAfter`, until input (a touch, a
    /// key, the remote's "screen_on") wakes it.
    public mutating func blank() -> [Action] {
        guard !isBlanked else { return [] }
        isBlanked = true
        nextSlide = nil
        return [.blank]
    }

    /// The time has come to `now` (called at `nextDeadline` or later, or any time at all).
    public mutating func tick(at now: Double) -> [Action] {
        var actions: [Action] = []
        let idle = now - lastInput
        if !isBlanked, !fingersDown {
            if parameters.idleTimeout > 0, idle >= parameters.idleTimeout, !idleActionDone {
                idleActionDone = true
                switch parameters.idleAction {
                case .grid: actions.append(.returnToGrid)
                case .slideshow: nextSlide = now
                case .none: break
                }
            }
            if let slide = nextSlide, now >= slide {
                actions.append(.nextSlide)
                nextSlide = now + max(parameters.slideshowInterval, 0.1)
            }
        }
        if parameters.blankAfter > 0, idle >= parameters.blankAfter, !isBlanked {
            isBlanked = true
            nextSlide = nil
            actions.append(.blank)
        }
        return actions
    }

    /// The earliest time `tick` has something to do; nil when only input can change anything.
    /// While a finger is down the idle time does not run out (its lifting is input).
    public var nextDeadline: Double? {
        var deadlines: [Double] = []
        if !isBlanked, !fingersDown {
            if parameters.idleTimeout > 0, !idleActionDone { deadlines.append(lastInput + parameters.idleTimeout) }
            if let nextSlide { deadlines.append(nextSlide) }
        }
        if parameters.blankAfter > 0, !isBlanked { deadlines.append(lastInput + parameters.blankAfter) }
        return deadlines.min()
    }
}
