import Touch

/// What `run` makes of an input device, judged from its capabilities: the one classification
/// `InputDevices` acts on and `vitrine inputs` prints.
public enum InputRole: Equatable, Sendable {
    /// Touches mapped onto the screen (a touch screen, or qemu's absolute tablet).
    case touch(TouchProtocol)
    /// A mouse: one pointer that touches while its left button is down.
    case mouse
    /// Esc and Back close the photo.
    case keys
    /// Not used, and why.
    case ignored(reason: String)

    /// `named`: `input.device` names this device, which then may be any device with a touch
    /// protocol (a touchpad too). `touchUnusable`: its touch mapping could not be made, so it is
    /// taken for what else it is.
    public init(_ device: DeviceDescription, named: Bool, touchUnusable: Bool = false) {
        let classification = device.classification
        if !touchUnusable, let touchProtocol = device.touchProtocol, classification.isTouchscreen || named {
            self = .touch(touchProtocol)
        } else if RelativePointerDecoder.handles(device) {
            self = .mouse
        } else if device.supports(EventType.key, KeyCode.esc) || device.supports(EventType.key, KeyCode.back) {
            self = .keys
        } else {
            switch classification {
            case .touchpad:
                self = .ignored(reason: "a touchpad, used only when input.device names it")
            case .touchscreen where touchUnusable:
                self = .ignored(reason: "its touch mapping cannot be made")
            case .touchscreen:
                self = .ignored(reason: "not a touch screen")
            case .unusable(let why):
                self = .ignored(reason: "not a touch screen (\(why)), a mouse or a device with Esc/Back keys")
            }
        }
    }
}
