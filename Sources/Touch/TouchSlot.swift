/// One multitouch (protocol B) slot: its contact's tracking id and position in device units.
public struct TouchSlot: Hashable, Sendable {
    /// -1 when the slot holds no contact.
    public var trackingID: Int32
    public var x: Int32
    public var y: Int32
    /// ABS_MT_TOOL_TYPE (`MTToolType`); palms are not reported as contacts.
    public var toolType: Int32

    public init(trackingID: Int32 = -1, x: Int32 = 0, y: Int32 = 0, toolType: Int32 = MTToolType.finger) {
        self.trackingID = trackingID
        self.x = x
        self.y = y
        self.toolType = toolType
    }

    var isContact: Bool { trackingID >= 0 && toolType != MTToolType.palm }
}

/// A device's current state as read back with ioctls, for `TouchDecoder.resynchronise`.
public struct DeviceState: Hashable, Sendable {
    /// Keys and buttons that are down (EVIOCGKEY).
    public var keysDown: Set<UInt16>
    /// Current values of absolute axes (EVIOCGABS(code).value), ABS_MT_SLOT included.
    public var absoluteValues: [UInt16: Int32]
    /// Every slot, by slot number (EVIOCGMTSLOTS for ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y and,
    /// when the device has it, ABS_MT_TOOL_TYPE).
    public var slots: [TouchSlot]

    public init(keysDown: Set<UInt16> = [], absoluteValues: [UInt16: Int32] = [:], slots: [TouchSlot] = []) {
        self.keysDown = keysDown
        self.absoluteValues = absoluteValues
        self.slots = slots
    }
}
