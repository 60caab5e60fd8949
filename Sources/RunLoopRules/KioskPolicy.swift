import Geometry

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
/// - Opening hours (SPEC §8), read from the wall clock each `tick` is given: closing takes the
///   open photo back to the grid at once, turns the display off and stops the idle actions until
///   opening, which turns it on with the grid at its first row (or starts the slideshow). A touch
///   while closed turns the screen on for `touchWakes` seconds after the last input (the waking
///   touch, like blanking's, opens nothing); then it closes again.
public struct KioskPolicy: Equatable, Sendable {
    /// What the kiosk does after `idleTimeout` (the config's `kiosk.idle_action`, by these names).
    public enum IdleAction: String, Equatable, Sendable, CaseIterable {
        case grid, slideshow, none
    }

    /// The rules' numbers, with the config's defaults (`Config.Settings.kiosk` is this struct).
    public struct Parameters: Equatable, Sendable {
        /// Seconds without input before `idleAction`; 0: never.
        public var idleTimeout: Double
        public var idleAction: IdleAction
        /// Seconds from one slide to the next.
        public var slideshowInterval: Double
        /// Seconds without input before the display goes off; 0: never.
        public var blankAfter: Double
        /// SPEC §8; empty: always open.
        public var openingHours: OpeningHours
        /// Seconds the screen stays on after a touch while closed; 0: touches do nothing then.
        public var touchWakes: Double

        public init(idleTimeout: Double = 120, idleAction: IdleAction = .grid, slideshowInterval: Double = 8,
                    blankAfter: Double = 0, openingHours: OpeningHours = OpeningHours(), touchWakes: Double = 120) {
            self.idleTimeout = idleTimeout
            self.idleAction = idleAction
            self.slideshowInterval = slideshowInterval
            self.blankAfter = blankAfter
            self.openingHours = openingHours
            self.touchWakes = touchWakes
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
        /// Closing time (or the end of a touch's wake while closed): the open photo back to the grid
        /// without animation, the display off, nothing drawn.
        case close
        /// Opening time: the display on, the grid at its first row.
        case open
    }

    /// Whether an input goes on to the scene.
    public enum Verdict: Equatable, Sendable {
        case deliver
        /// It only woke the screen (or belongs to the touch that did).
        case swallow
    }

    public var parameters: Parameters
    /// The zone the opening hours are read in.
    public let zone: LocalZone
    public private(set) var isBlanked = false
    /// The opening hours say closed (nil before the first `tick` with the wall clock).
    private var scheduleOpen: Bool?
    /// While closed, a touch keeps the screen on until this time.
    private var wokenUntil: Double?
    /// When the opening hours next open or close (seconds since the epoch), as of the last `tick`.
    public private(set) var nextScheduleChange: Int?
    public private(set) var fingersDown = false
    private var lastInput: Double
    private var swallowingTouch = false
    private var idleActionDone = false
    private var nextSlide: Double?

    /// `now`: the start counts as the last input.
    public init(parameters: Parameters, now: Double, zone: LocalZone = .utc) {
        self.parameters = parameters
        self.zone = zone
        lastInput = now
    }

    /// Closed by the opening hours (the screen may be on for a touch).
    public var isClosed: Bool { scheduleOpen == false }

    /// Whether the display is on and frames are drawn.
    public var isScreenOn: Bool { !isBlanked && (!isClosed || wokenUntil != nil) }

    /// "closed until Mon 09:00" while closed, as of `wall` (seconds since the epoch); nil when open.
    public func closedStatus(wall: Double) -> String? {
        guard isClosed else { return nil }
        guard let change = nextScheduleChange else { return "closed" }
        return "closed until " + OpeningHours.describe(change, from: Self.epochSecond(wall), in: zone)
    }

    /// A touch frame with `contacts` fingers down arrived at `now`.
    public mutating func touch(contacts: Int, at now: Double) -> (Verdict, [Action]) {
        let screenWasOff = !isScreenOn
        let actions = input(at: now)
        if screenWasOff || swallowingTouch {
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
        let screenWasOff = !isScreenOn
        let actions = input(at: now)
        return (screenWasOff ? .swallow : .deliver, actions)
    }

    private mutating func input(at now: Double) -> [Action] {
        if isClosed {
            return inputWhileClosed(at: now)
        }
        lastInput = now
        idleActionDone = false
        nextSlide = nil
        guard isBlanked else { return [] }
        isBlanked = false
        return [.wake]
    }

    /// The remote's "screen_off": the display off as after `blankAfter`, until input (a touch, a
    /// key, the remote's "screen_on") wakes it; while closed, a screen a touch woke goes dark again.
    public mutating func blank() -> [Action] {
        guard isScreenOn else { return [] }
        if isClosed {
            wokenUntil = nil
        } else {
            isBlanked = true
            nextSlide = nil
        }
        return [.blank]
    }

    /// Closed: a touch wakes the screen for `touchWakes` s, and keeps it on while the visitor goes on.
    private mutating func inputWhileClosed(at now: Double) -> [Action] {
        lastInput = now
        // touch_wakes = 0: the screen stays dark and the touch goes nowhere.
        guard parameters.touchWakes > 0 else { return [] }
        defer { wokenUntil = now + parameters.touchWakes }
        return wokenUntil == nil ? [.wake] : []
    }

    /// The time has come to `now` (called at `nextDeadline` or later, or any time at all). `wall`:
    /// the wall clock's time now (seconds since the epoch), for the opening hours; without it they
    /// are not looked at.
    public mutating func tick(at now: Double, wall: Double? = nil) -> [Action] {
        var actions: [Action] = []
        if let wall { actions += followOpeningHours(at: now, wall: wall) }
        if isClosed {
            if let until = wokenUntil, now >= until, !fingersDown {
                wokenUntil = nil
                actions.append(.close)
            }
            return actions
        }
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

    /// The whole second of a wall-clock reading, within the calendar's years 1-9999 (the clock is
    /// the kernel's, but a trap must not follow from a clock set to nonsense).
    static func epochSecond(_ wall: Double) -> Int {
        min(max(Int(flooringSaturating: wall), -62_135_596_800), 253_402_300_799)
    }

    /// Opens or closes when the opening hours say so at `wall`; the state is worked out from the
    /// wall clock each time, so a clock that jumped is simply read again.
    private mutating func followOpeningHours(at now: Double, wall: Double) -> [Action] {
        let hours = parameters.openingHours
        let epoch = Self.epochSecond(wall)
        let open = hours.isOpen(at: epoch, in: zone)
        nextScheduleChange = hours.nextChange(after: epoch, in: zone)
        defer { scheduleOpen = open }
        switch (scheduleOpen, open) {
        case (false?, true):
            // Opening: a fresh start, as if the last touch were now.
            wokenUntil = nil
            isBlanked = false
            lastInput = now
            nextSlide = nil
            // The slideshow kiosk opens with its slideshow; the grid kiosk is already at its top.
            idleActionDone = parameters.idleAction == .slideshow
            if idleActionDone { nextSlide = now }
            return [.open]
        case (let before, false) where before != false:
            isBlanked = false
            wokenUntil = nil
            nextSlide = nil
            swallowingTouch = fingersDown
            fingersDown = false
            return [.close]
        default:
            return []
        }
    }

    /// The earliest time `tick` has something to do; nil when only input can change anything.
    /// While a finger is down the idle time does not run out (its lifting is input). The opening
    /// hours' next change is on the wall clock: `nextScheduleChange`.
    public var nextDeadline: Double? {
        if isClosed {
            return fingersDown ? nil : wokenUntil
        }
        var deadlines: [Double] = []
        if !isBlanked, !fingersDown {
            if parameters.idleTimeout > 0, !idleActionDone { deadlines.append(lastInput + parameters.idleTimeout) }
            if let nextSlide { deadlines.append(nextSlide) }
        }
        if parameters.blankAfter > 0, !isBlanked { deadlines.append(lastInput + parameters.blankAfter) }
        return deadlines.min()
    }
}
