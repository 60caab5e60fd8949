// Event types and codes from linux/input-event-codes.h, under Swift names. Only the ones Vitrine
// reads or classifies devices by; the values are the kernel's ABI and never change.

/// `EV_*`: the kind of an input event.
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let max: UInt16 = 0x1f
}

/// `SYN_*` codes of `EV_SYN` events.
public enum SynCode {
    /// Commits everything since the previous report as one frame.
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    /// Ends one contact's packet in multitouch protocol A.
    public static let mtReport: UInt16 = 2
    /// The kernel's buffer overflowed: events were lost and the state must be re-read.
    public static let dropped: UInt16 = 3
}

/// `KEY_*` and `BTN_*` codes of `EV_KEY` events.
public enum KeyCode {
    public static let esc: UInt16 = 1
    public static let back: UInt16 = 158
    public static let btnLeft: UInt16 = 0x110
    public static let btnRight: UInt16 = 0x111
    public static let btnMiddle: UInt16 = 0x112
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnToolDoubleTap: UInt16 = 0x14d
    public static let btnTouch: UInt16 = 0x14a
    public static let max: UInt16 = 0x2ff
}

/// `ABS_*` codes of `EV_ABS` events.
public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let z: UInt16 = 0x02
    public static let rx: UInt16 = 0x03
    public static let ry: UInt16 = 0x04
    public static let pressure: UInt16 = 0x18
    public static let misc: UInt16 = 0x28
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtTouchMinor: UInt16 = 0x31
    public static let mtWidthMajor: UInt16 = 0x32
    public static let mtWidthMinor: UInt16 = 0x33
    public static let mtOrientation: UInt16 = 0x34
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtBlobID: UInt16 = 0x38
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
    public static let max: UInt16 = 0x3f
}

/// `MSC_*` codes of `EV_MSC` events.
/// `REL_*` codes: relative axes (a mouse).
public enum RelCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
}

public enum MscCode {
    public static let scan: UInt16 = 0x04
    public static let timestamp: UInt16 = 0x05
}

/// `INPUT_PROP_*` device properties.
public enum InputProperty {
    /// Needs a pointer on screen (touchpads, mice).
    public static let pointer: UInt16 = 0x00
    /// Touches land directly on the screen (touchscreens, pen displays).
    public static let direct: UInt16 = 0x01
    /// The whole pad is a button (clickpads).
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let max: UInt16 = 0x1f
}

/// `MT_TOOL_*` values of `ABS_MT_TOOL_TYPE`.
public enum MTToolType {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}
