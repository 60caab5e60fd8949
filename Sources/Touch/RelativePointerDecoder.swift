import Geometry

/// A mouse as one pointer: REL_X/REL_Y move a position over the screen (starting at its centre,
/// clamped to its edges) and BTN_LEFT held down is a finger there, contact id 0. Like the touch
/// decoder, nothing acts before SYN_REPORT; a frame is returned only while the button is down or
/// when it changes. A mouse is not attached to the panel, so no rotation applies.
public struct RelativePointerDecoder: Sendable {
    public let screen: Size
    public private(set) var position: Point
    private var pendingDelta = (x: 0.0, y: 0.0)
    private var pendingButton: Bool?
    private var buttonDown = false

    public init(screen: Size) {
        self.screen = screen
        position = Point(x: screen.width / 2, y: screen.height / 2)
    }

    /// True for a device with REL_X, REL_Y and BTN_LEFT.
    public static func handles(_ device: DeviceDescription) -> Bool {
        device.supports(EventType.rel, RelCode.x) && device.supports(EventType.rel, RelCode.y)
            && device.supports(EventType.key, KeyCode.btnLeft)
    }

    public mutating func feed(_ event: InputEvent) -> TouchFrame? {
        switch (event.type, event.code) {
        case (EventType.rel, RelCode.x):
            pendingDelta.x += Double(event.value)
        case (EventType.rel, RelCode.y):
            pendingDelta.y += Double(event.value)
        case (EventType.key, KeyCode.btnLeft):
            pendingButton = event.value != 0
        case (EventType.syn, SynCode.report):
            return commit(time: event.time)
        case (EventType.syn, SynCode.dropped):
            // Deltas were lost: the position is only approximate from here, which a mouse
            // user corrects by moving; the button state comes back with its next event.
            pendingDelta = (0, 0)
        default:
            break
        }
        return nil
    }

    private mutating func commit(time: Double) -> TouchFrame? {
        let moved = pendingDelta.x != 0 || pendingDelta.y != 0
        position = Point(x: min(max(position.x + pendingDelta.x, 0), screen.width - 1),
                         y: min(max(position.y + pendingDelta.y, 0), screen.height - 1))
        pendingDelta = (0, 0)
        let wasDown = buttonDown
        if let button = pendingButton { buttonDown = button }
        pendingButton = nil
        guard buttonDown != wasDown || (buttonDown && moved) else { return nil }
        return TouchFrame(time: time, contacts: buttonDown ? [TouchContact(id: 0, position: position)] : [])
    }
}
