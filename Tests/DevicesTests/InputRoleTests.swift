import Testing
import Touch
@testable import Devices

/// The one classification `run` acts on and `vitrine inputs` prints.
@Suite struct InputRoleTests {
    static func device(keys: Set<UInt16> = [], abs: [UInt16: DeviceDescription.Axis] = [:], rel: Set<UInt16> = [],
                       properties: Set<UInt16> = []) -> DeviceDescription {
        var types: Set<UInt16> = [EventType.syn]
        if !keys.isEmpty { types.insert(EventType.key) }
        if !abs.isEmpty { types.insert(EventType.abs) }
        if !rel.isEmpty { types.insert(EventType.rel) }
        return DeviceDescription(name: "test", properties: properties,
                                 events: [EventType.syn: types, EventType.key: keys, EventType.abs: Set(abs.keys),
                                          EventType.rel: rel],
                                 axes: abs)
    }

    static let screenAxes: [UInt16: DeviceDescription.Axis] = [
        AbsCode.mtSlot: .init(minimum: 0, maximum: 9),
        AbsCode.mtPositionX: .init(minimum: 0, maximum: 1279, resolution: 10),
        AbsCode.mtPositionY: .init(minimum: 0, maximum: 799, resolution: 10),
        AbsCode.mtTrackingID: .init(minimum: 0, maximum: 65535),
    ]
    static let touchscreen = device(keys: [KeyCode.btnTouch], abs: screenAxes, properties: [InputProperty.direct])
    static let touchpad = device(keys: [KeyCode.btnTouch, KeyCode.btnLeft, KeyCode.btnToolFinger], abs: screenAxes,
                                 properties: [InputProperty.pointer])
    static let keyboard = device(keys: Set((1...120).map(UInt16.init)))
    static let mouse = device(keys: [KeyCode.btnLeft, KeyCode.btnRight], rel: [RelCode.x, RelCode.y])

    @Test func aTouchScreenIsTakenForTouch() {
        #expect(InputRole(Self.touchscreen, named: false) == .touch(.multitouch))
    }

    @Test func aTouchpadOnlyWhenInputDeviceNamesIt() {
        #expect(InputRole(Self.touchpad, named: false) == .ignored(reason: "a touchpad, used only when input.device names it"))
        #expect(InputRole(Self.touchpad, named: true) == .touch(.multitouch))
    }

    @Test func keyboardsAndMiceHaveTheirRoles() {
        #expect(InputRole(Self.keyboard, named: false) == .keys)
        #expect(InputRole(Self.mouse, named: false) == .mouse)
        #expect(InputRole(Self.device(keys: [30, 31]), named: false)
                == .ignored(reason: "not a touch screen (no absolute axes), a mouse or a device with Esc/Back keys"))
    }

    @Test func aTouchScreenWhoseMappingFailsIsTakenForWhatElseItIs() {
        var withEsc = Self.touchscreen
        withEsc.events[EventType.key]?.insert(KeyCode.esc)
        #expect(InputRole(withEsc, named: false, touchUnusable: true) == .keys)
        #expect(InputRole(Self.touchscreen, named: false, touchUnusable: true)
                == .ignored(reason: "its touch mapping cannot be made"))
    }
}
