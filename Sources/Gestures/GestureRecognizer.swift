import Geometry
import Touch

/// Turns the touch surface's frames into `GestureEvent`s. Pure: all time comes from the frames.
public struct GestureRecognizer: Sendable {
    public struct Configuration: Equatable, Sendable {
        /// Travel (px) past which a touch is a pan and no longer a tap.
        public var tapSlop: Double
        /// Longest tap (s).
        public var tapTimeout: Double
        /// Longest gap from a tap's lift to the next touch-down for a double tap (s).
        public var doubleTapInterval: Double
        /// Farthest the second tap may land from the first (px).
        public var doubleTapDistance: Double

        public init(tapSlop: Double = 10, tapTimeout: Double = 0.3,
                    doubleTapInterval: Double = 0.3, doubleTapDistance: Double = 40) {
            self.tapSlop = tapSlop
            self.tapTimeout = tapTimeout
            self.doubleTapInterval = doubleTapInterval
            self.doubleTapDistance = doubleTapDistance
        }
    }

    private enum Phase: Sendable {
        case idle
        /// One finger down, not yet moved past the slop.
        case pressed
        case panning
        case pinching(first: Int, second: Int, startDistance: Double, startCenter: Point)
        /// The gesture is over but fingers are still down.
        case draining
    }

    public let configuration: Configuration
    private var phase = Phase.idle
    private var tracker = VelocityTracker()
    private var primaryID = 0
    private var downLocation = Point.zero
    private var downTime = 0.0
    private var location = Point.zero
    /// More than one finger was down at some point: not a tap.
    private var hadSeveralFingers = false
    private var lastTap: (time: Double, location: Point)?
    /// The pinch's midpoint and its scale (as x), one sample per frame.
    private var centerTracker = VelocityTracker()
    private var scaleTracker = VelocityTracker()

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// True while at least one finger is down.
    public var isTouching: Bool {
        if case .idle = phase { return false }
        return true
    }

    public mutating func handle(_ frame: TouchFrame) -> [GestureEvent] {
        let contacts = frame.contacts
        switch phase {
        case .idle:
            guard let first = contacts.first else { return [] }
            primaryID = first.id
            downLocation = first.position
            location = first.position
            downTime = frame.time
            hadSeveralFingers = false
            tracker.reset()
            tracker.add(first.position, at: frame.time)
            phase = .pressed
            var events = [GestureEvent.down(first.position)]
            if contacts.count >= 2 { events += beginPinch(contacts, at: frame.time) }
            return events

        case .pressed:
            if contacts.count >= 2, contacts.contains(where: { $0.id == primaryID }) {
                return beginPinch(contacts, at: frame.time)
            }
            guard let primary = contacts.first(where: { $0.id == primaryID }) else {
                if contacts.isEmpty { return release(at: frame.time) }
                phase = .draining
                return []
            }
            move(to: primary.position, at: frame.time)
            if primary.position.distance(to: downLocation) > configuration.tapSlop {
                phase = .panning
                return [.panBegan(currentPan(at: frame.time))]
            }
            return []

        case .panning:
            if let primary = contacts.first(where: { $0.id == primaryID }) {
                move(to: primary.position, at: frame.time)
                return [.panChanged(currentPan(at: frame.time))]
            }
            let ended = GestureEvent.panEnded(currentPan(at: frame.time))
            if contacts.isEmpty {
                phase = .idle
                return [ended, .up(location, velocity: tracker.velocity(at: frame.time))]
            }
            phase = .draining
            return [ended]

        case let .pinching(first, second, startDistance, startCenter):
            let a = contacts.first(where: { $0.id == first }), b = contacts.first(where: { $0.id == second })
            if let a, let b {
                location = Self.midpoint(a.position, b.position)
                centerTracker.add(location, at: frame.time)
                scaleTracker.add(Point(x: a.position.distance(to: b.position) / startDistance, y: 0), at: frame.time)
                return [.pinchChanged(currentPinch(startCenter: startCenter, at: frame.time))]
            }
            let ended = GestureEvent.pinchEnded(currentPinch(startCenter: startCenter, at: frame.time))
            if contacts.isEmpty {
                phase = .idle
                return [ended, .up(location, velocity: .zero)]
            }
            phase = .draining
            return [ended]

        case .draining:
            if contacts.isEmpty {
                phase = .idle
                return [.up(location, velocity: .zero)]
            }
            return []
        }
    }

    private mutating func beginPinch(_ contacts: [TouchContact], at time: Double) -> [GestureEvent] {
        hadSeveralFingers = true
        let a = contacts.first(where: { $0.id == primaryID }) ?? contacts[0]
        guard let b = contacts.first(where: { $0.id != a.id }) else { return [] }
        let distance = a.position.distance(to: b.position)
        guard distance > 1 else {
            phase = .draining
            return []
        }
        let center = Self.midpoint(a.position, b.position)
        phase = .pinching(first: a.id, second: b.id, startDistance: distance, startCenter: center)
        location = center
        centerTracker.reset()
        scaleTracker.reset()
        centerTracker.add(center, at: time)
        scaleTracker.add(Point(x: 1, y: 0), at: time)
        return [.pinchBegan(Pinch(startCenter: center, center: center, scale: 1))]
    }

    /// The newest samples, with velocities as at `time` (zero after a pause of over 40 ms).
    private func currentPinch(startCenter: Point, at time: Double) -> Pinch {
        Pinch(startCenter: startCenter, center: location, scale: scaleTracker.newestPosition?.x ?? 1,
              centerVelocity: centerTracker.velocity(at: time), scaleVelocity: scaleTracker.velocity(at: time).x)
    }

    private mutating func move(to position: Point, at time: Double) {
        location = position
        tracker.add(position, at: time)
    }

    private func currentPan(at time: Double) -> Pan {
        Pan(start: downLocation, location: location, velocity: tracker.velocity(at: time))
    }

    /// The only finger lifted before it panned: a tap, a double tap, or nothing.
    private mutating func release(at time: Double) -> [GestureEvent] {
        phase = .idle
        var events: [GestureEvent] = []
        if !hadSeveralFingers, time - downTime <= configuration.tapTimeout {
            if let last = lastTap, downTime - last.time <= configuration.doubleTapInterval,
               downLocation.distance(to: last.location) <= configuration.doubleTapDistance {
                events.append(.doubleTap(downLocation))
                lastTap = nil
            } else {
                events.append(.tap(downLocation))
                lastTap = (time, downLocation)
            }
        } else {
            lastTap = nil
        }
        events.append(.up(location, velocity: tracker.velocity(at: time)))
        return events
    }

    private static func midpoint(_ a: Point, _ b: Point) -> Point {
        Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }
}
