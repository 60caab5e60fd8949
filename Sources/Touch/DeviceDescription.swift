/// What an evdev device is and can report: filled from an evemu recording's header here, from
/// ioctls (EVIOCGNAME, EVIOCGID, EVIOCGPROP, EVIOCGBIT, EVIOCGABS) in `run`.
public struct DeviceDescription: Hashable, Sendable {
    /// `struct input_id`.
    public struct ID: Hashable, Sendable {
        public var bus: UInt16
        public var vendor: UInt16
        public var product: UInt16
        public var version: UInt16

        public init(bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
            self.bus = bus
            self.vendor = vendor
            self.product = product
            self.version = version
        }
    }

    /// `struct input_absinfo` of one absolute axis.
    public struct Axis: Hashable, Sendable {
        /// The axis' value when the description was taken (evemu headers don't record it: 0).
        public var value: Int32
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        /// Units per millimetre (0 when the driver doesn't say).
        public var resolution: Int32

        public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0,
                    resolution: Int32 = 0) {
            self.value = value
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }

        /// The range positions can take; nil when it is empty or a single value, which no
        /// mapping onto a screen can use.
        public var range: ClosedRange<Int32>? {
            minimum < maximum ? minimum...maximum : nil
        }
    }

    public var name: String
    public var id: ID
    /// `INPUT_PROP_*` bits that are set.
    public var properties: Set<UInt16>
    /// Supported event codes per event type (`EV_*` -> codes), as EVIOCGBIT reports them; the
    /// type bits themselves are `events[EventType.syn]`, as in the kernel's bitmask for type 0.
    public var events: [UInt16: Set<UInt16>]
    /// Axis information per `ABS_*` code.
    public var axes: [UInt16: Axis]

    public init(name: String = "", id: ID = ID(), properties: Set<UInt16> = [],
                events: [UInt16: Set<UInt16>] = [:], axes: [UInt16: Axis] = [:]) {
        self.name = name
        self.id = id
        self.properties = properties
        self.events = events
        self.axes = axes
    }

    public func supports(_ type: UInt16, _ code: UInt16) -> Bool {
        events[type]?.contains(code) ?? false
    }

    public func hasProperty(_ property: UInt16) -> Bool {
        properties.contains(property)
    }

    /// An absolute axis the device reports and describes with a usable range.
    public func usableAxis(_ code: UInt16) -> Axis? {
        guard supports(EventType.abs, code), let axis = axes[code], axis.range != nil else { return nil }
        return axis
    }

    /// How contacts are reported, judged from the capabilities alone; nil when the device has no
    /// usable pair of position axes.
    public var touchProtocol: TouchProtocol? {
        if usableAxis(AbsCode.mtPositionX) != nil, usableAxis(AbsCode.mtPositionY) != nil {
            return supports(EventType.abs, AbsCode.mtSlot) ? .multitouch : .multitouchProtocolA
        }
        guard usableAxis(AbsCode.x) != nil, usableAxis(AbsCode.y) != nil else { return nil }
        if supports(EventType.key, KeyCode.btnTouch) { return .singleTouch }
        if supports(EventType.key, KeyCode.btnLeft) { return .absolutePointer }
        return nil
    }

    /// The `ABS_*` codes that carry the contact position under `touchProtocol` (before any
    /// quirk the decoder discovers from the events, see `TouchDecoder`).
    public var positionAxes: (x: UInt16, y: UInt16)? {
        switch touchProtocol {
        case .multitouch, .multitouchProtocolA: return (AbsCode.mtPositionX, AbsCode.mtPositionY)
        case .singleTouch, .absolutePointer: return (AbsCode.x, AbsCode.y)
        case nil: return nil
        }
    }

    /// Whether this device is a touchpad (moves a pointer, not a screen). Kernels mark them with
    /// INPUT_PROP_POINTER or BUTTONPAD; older ones set no properties at all, so a device with a
    /// finger tool and a left button that is neither direct nor a pen is taken for one too
    /// (the shape of udev's ID_INPUT_TOUCHPAD rule).
    public var isTouchpad: Bool {
        if hasProperty(InputProperty.pointer) || hasProperty(InputProperty.buttonpad) { return true }
        return !hasProperty(InputProperty.direct)
            && supports(EventType.key, KeyCode.btnToolFinger)
            && supports(EventType.key, KeyCode.btnLeft)
            && !supports(EventType.key, KeyCode.btnToolPen)
    }

    /// What Vitrine can do with this device. INPUT_PROP_DIRECT is not required for a
    /// touchscreen: recordings from older kernels have no properties at all.
    public var classification: DeviceClass {
        guard let touchProtocol else {
            if events[EventType.syn]?.contains(EventType.abs) == false || events[EventType.abs, default: []].isEmpty {
                return .unusable(reason: "no absolute axes")
            }
            return .unusable(reason: "no usable position axes (ABS_MT_POSITION_X/Y, or ABS_X/Y with BTN_TOUCH or BTN_LEFT)")
        }
        return isTouchpad ? .touchpad(touchProtocol) : .touchscreen(touchProtocol)
    }
}

/// How a device reports its contacts.
public enum TouchProtocol: Hashable, Sendable {
    /// Multitouch protocol B: slots (ABS_MT_SLOT) with tracking ids.
    case multitouch
    /// Multitouch protocol A: anonymous contacts separated by SYN_MT_REPORT.
    case multitouchProtocolA
    /// ABS_X/ABS_Y, touching while BTN_TOUCH is down.
    case singleTouch
    /// ABS_X/ABS_Y with BTN_LEFT and no BTN_TOUCH (qemu's virtio/USB tablet): one pointer,
    /// touching while the left button is down.
    case absolutePointer
}

/// The verdict on a device.
public enum DeviceClass: Hashable, Sendable {
    /// Maps onto the screen: a touchscreen, or an absolute pointer such as qemu's tablet.
    case touchscreen(TouchProtocol)
    /// Decodable, but a touchpad: only to be used when the configuration names it.
    case touchpad(TouchProtocol)
    case unusable(reason: String)

    /// Whether `input.device = "auto"` may pick the device.
    public var isTouchscreen: Bool {
        if case .touchscreen = self { return true }
        return false
    }
}
