import Config
import Evdev
import Geometry
import Linux
import Touch

/// `vitrine inputs` (SPEC §6): every /dev/input/event* device, its capabilities, and what `run`
/// makes of it with the settings (`InputRole`, the classification `InputDevices` acts on).
/// `read` opens each node read-only for a moment (no grab, no events read); `text` is plain text
/// for a person at a terminal, as evtest's header but shorter.
public struct InputsReport {
    public struct Device {
        public var path: String
        public var description: DeviceDescription?
        /// Why the node could not be opened.
        public var problem: String?
    }

    public var directory: String
    /// Why `directory` could not be listed; nil when it was (a missing folder is no devices).
    public var listingProblem: String?
    public var devices: [Device]
    public var settings: Settings.Input
    /// `display.rotation`; nil: the panel's orientation, which only the display knows.
    public var displayRotation: Settings.Rotation?
    /// `input.device` resolved to the node it names (a /dev/input/by-id/ link), when it is set.
    public var namedNode: String?

    public static func read(settings: Settings.Input, displayRotation: Settings.Rotation?,
                            directory: String = "/dev/input") -> InputsReport {
        var listingProblem: String?
        var devices: [Device] = []
        do {
            devices = try FileName.numberedNodes(in: directory, prefix: "event").map { path in
                do {
                    let device = try EvdevDevice(path: path)
                    defer { device.close() }
                    return Device(path: path, description: device.description)
                } catch {
                    return Device(path: path, problem: FieldAccess.explain(error, path: path, usualGroup: "input"))
                }
            }
        } catch {
            listingProblem = FieldAccess.explain(error, path: directory, usualGroup: "input")
        }
        let namedNode = settings.device.map { (try? FileName.resolved($0)) ?? $0 }
        return InputsReport(directory: directory, listingProblem: listingProblem, devices: devices, settings: settings,
                            displayRotation: displayRotation, namedNode: namedNode)
    }

    // MARK: - Text

    public var text: String {
        var lines: [String] = []
        if let listingProblem {
            lines.append("cannot list \(directory): \(listingProblem)")
        } else if devices.isEmpty {
            lines.append("no input device: \(directory) has no event* nodes")
        }
        for device in devices { lines += self.lines(device) }
        if let named = settings.device, !devices.contains(where: { $0.path == namedNode }) {
            lines.append("input.device = \(named) is not among them; run waits for it to appear")
        }
        let anyTouch = devices.contains { device in
            guard let d = device.description, case .touch = role(of: d, at: device.path) else { return false }
            return true
        }
        if !anyTouch { lines.append("no touch screen for run: it waits for one to appear") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What run makes of the device at `path`: with `input.device` set, only that one is opened.
    public func role(of description: DeviceDescription, at path: String) -> InputRole {
        if let namedNode, namedNode != path {
            return .ignored(reason: "input.device names \(settings.device ?? namedNode)")
        }
        return InputRole(description, named: namedNode != nil)
    }

    func lines(_ device: Device) -> [String] {
        guard let d = device.description else {
            return ["\(device.path): cannot open: \(device.problem ?? "?")"]
        }
        var lines = ["\(device.path): \"\(LogLine.escaped(d.name))\""]
        lines.append("  bus \(Self.busName(d.id.bus)), vendor \(Self.hex(d.id.vendor)), product \(Self.hex(d.id.product)), version \(Self.hex(d.id.version))")
        let properties = d.properties.sorted().map { Self.propertyNames[$0] ?? "property \($0)" }
        if !properties.isEmpty { lines.append("  properties: " + properties.joined(separator: ", ")) }
        let types = (d.events[EventType.syn] ?? []).sorted().map { Self.eventTypeNames[$0] ?? "type \($0)" }
        lines.append("  events: " + types.joined(separator: " "))
        if let keys = d.events[EventType.key], !keys.isEmpty {
            let keyboard = keys.filter { $0 < 0x100 }
            let buttons = keys.filter { $0 >= 0x100 }.sorted().map { Self.buttonNames[$0] ?? "BTN 0x\(String($0, radix: 16))" }
            var parts: [String] = []
            if !keyboard.isEmpty {
                parts.append("\(keyboard.count) keyboard keys (Esc \(keys.contains(KeyCode.esc) ? "yes" : "no"), Back \(keys.contains(KeyCode.back) ? "yes" : "no"))")
            }
            if !buttons.isEmpty { parts.append(buttons.joined(separator: " ")) }
            lines.append("  keys: " + parts.joined(separator: "; "))
        }
        if let relative = d.events[EventType.rel], !relative.isEmpty {
            lines.append("  relative axes: " + relative.sorted().map { Self.relativeNames[$0] ?? "REL 0x\(String($0, radix: 16))" }.joined(separator: " "))
        }
        for code in d.axes.keys.sorted() {
            guard let axis = d.axes[code] else { continue }
            let name = Self.absoluteNames[code] ?? "ABS 0x\(String(code, radix: 16))"
            lines.append("  \(name): \(axis.minimum)...\(axis.maximum)\(axis.resolution != 0 ? ", resolution \(axis.resolution)/mm" : "")\(axis.fuzz != 0 ? ", fuzz \(axis.fuzz)" : "")")
        }
        lines.append("  " + Self.protocolLine(d))
        lines.append("  run: " + describe(role(of: d, at: device.path), d))
        return lines
    }

    static func protocolLine(_ d: DeviceDescription) -> String {
        switch d.classification {
        case .touchscreen(let p): return "touch: \(name(of: p, d)), a touch screen"
        case .touchpad(let p): return "touch: \(name(of: p, d)), a touchpad"
        case .unusable(let why): return "touch: none (\(why))"
        }
    }

    static func name(of touchProtocol: TouchProtocol, _ d: DeviceDescription) -> String {
        switch touchProtocol {
        case .multitouch:
            let slots = d.axes[AbsCode.mtSlot].map { Int($0.maximum) - Int($0.minimum) + 1 }
            return "multitouch protocol B" + (slots.map { ", \($0) slots" } ?? "")
        case .multitouchProtocolA: return "multitouch protocol A"
        case .singleTouch: return "single touch (ABS_X/ABS_Y with BTN_TOUCH)"
        case .absolutePointer: return "absolute pointer (ABS_X/ABS_Y with BTN_LEFT)"
        }
    }

    func describe(_ role: InputRole, _ d: DeviceDescription) -> String {
        switch role {
        case .touch(let touchProtocol):
            return "touch screen, \(Self.name(of: touchProtocol, d)); \(mapping(for: d))\(settings.grab ? "; grabbed (input.grab)" : "")"
        case .mouse:
            return "mouse: one pointer, the left button touches"
        case .keys:
            return "keys: Esc/Back close the photo"
        case .ignored(let reason):
            return "ignored: \(reason)"
        }
    }

    /// The turn, swap, inversion and calibration from the settings, and where the device's
    /// first corner lands on the screen (the check an integrator makes with a finger).
    func mapping(for d: DeviceDescription) -> String {
        // The display rotation the touch follows: input.rotation, else display.rotation.
        let follows = settings.rotation ?? displayRotation
        let rotationSource = settings.rotation != nil ? "input.rotation"
            : displayRotation != nil ? "follows display.rotation"
            : "follows the display's rotation, display.rotation = auto: the panel orientation (see vitrine displays)"
        let rotation = follows.map { TouchMapping.transformRotation(input: settings, displayRotation: $0) }
        var parts = ["mapping: " + (follows.map { "rotation \($0.rawValue)° (\(rotationSource))" } ?? rotationSource)]
        var flags: [String] = []
        if settings.swapXY { flags.append("swap_xy") }
        if settings.invertX { flags.append("invert_x") }
        if settings.invertY { flags.append("invert_y") }
        parts.append(flags.isEmpty ? "no swap or inversion" : flags.joined(separator: ", "))
        parts.append(settings.calibration.map { "calibration \($0.map { "\($0)" }.joined(separator: " "))" } ?? "no calibration")
        if let rotation,
           let transform = try? TouchTransform(device: d, screen: Size(width: 1, height: 1), rotation: rotation,
                                               swapXY: settings.swapXY, invertX: settings.invertX,
                                               invertY: settings.invertY, calibration: settings.calibration) {
            let corner = transform.point(normalisedX: 0, normalisedY: 0)
            parts.append("the device's (x min, y min) is the screen's \(Self.cornerName(corner))")
        }
        return parts.joined(separator: ", ")
    }

    static func cornerName(_ point: Point) -> String {
        let vertical = point.y < 0.25 ? "top" : point.y > 0.75 ? "bottom" : "middle"
        let horizontal = point.x < 0.25 ? "left" : point.x > 0.75 ? "right" : "centre"
        return "\(vertical) \(horizontal)"
    }

    // MARK: - Names (linux/input.h, linux/input-event-codes.h)

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func busName(_ bus: UInt16) -> String {
        let names: [UInt16: String] = [0x01: "PCI", 0x03: "USB", 0x05: "Bluetooth", 0x06: "virtual", 0x10: "ISA",
                                       0x11: "i8042", 0x18: "I2C", 0x19: "host", 0x1C: "SPI", 0x1D: "RMI"]
        return names[bus].map { "\($0) (\(hex(bus)))" } ?? hex(bus)
    }

    static let propertyNames: [UInt16: String] = [
        InputProperty.pointer: "pointer", InputProperty.direct: "direct", InputProperty.buttonpad: "buttonpad",
        InputProperty.semiMT: "semi-multitouch", 0x04: "top buttonpad", 0x05: "pointing stick", 0x06: "accelerometer",
    ]

    static let eventTypeNames: [UInt16: String] = [
        0x00: "SYN", 0x01: "KEY", 0x02: "REL", 0x03: "ABS", 0x04: "MSC", 0x05: "SW", 0x11: "LED", 0x12: "SND",
        0x14: "REP", 0x15: "FF", 0x16: "PWR", 0x17: "FF_STATUS",
    ]

    static let relativeNames: [UInt16: String] = [
        0x00: "REL_X", 0x01: "REL_Y", 0x02: "REL_Z", 0x06: "REL_HWHEEL", 0x08: "REL_WHEEL",
        0x0b: "REL_WHEEL_HI_RES", 0x0c: "REL_HWHEEL_HI_RES",
    ]

    static let buttonNames: [UInt16: String] = [
        0x110: "BTN_LEFT", 0x111: "BTN_RIGHT", 0x112: "BTN_MIDDLE", 0x113: "BTN_SIDE", 0x114: "BTN_EXTRA",
        0x140: "BTN_TOOL_PEN", 0x141: "BTN_TOOL_RUBBER", 0x145: "BTN_TOOL_FINGER", 0x14a: "BTN_TOUCH",
        0x14b: "BTN_STYLUS", 0x14c: "BTN_STYLUS2", 0x14d: "BTN_TOOL_DOUBLETAP", 0x14e: "BTN_TOOL_TRIPLETAP",
        0x14f: "BTN_TOOL_QUADTAP", 0x148: "BTN_TOOL_QUINTTAP",
    ]

    static let absoluteNames: [UInt16: String] = [
        0x00: "ABS_X", 0x01: "ABS_Y", 0x02: "ABS_Z", 0x03: "ABS_RX", 0x04: "ABS_RY", 0x05: "ABS_RZ",
        0x06: "ABS_THROTTLE", 0x07: "ABS_RUDDER", 0x08: "ABS_WHEEL", 0x09: "ABS_GAS", 0x0a: "ABS_BRAKE",
        0x10: "ABS_HAT0X", 0x11: "ABS_HAT0Y", 0x18: "ABS_PRESSURE", 0x19: "ABS_DISTANCE", 0x1a: "ABS_TILT_X",
        0x1b: "ABS_TILT_Y", 0x1c: "ABS_TOOL_WIDTH", 0x20: "ABS_VOLUME", 0x28: "ABS_MISC",
        0x2f: "ABS_MT_SLOT", 0x30: "ABS_MT_TOUCH_MAJOR", 0x31: "ABS_MT_TOUCH_MINOR", 0x32: "ABS_MT_WIDTH_MAJOR",
        0x33: "ABS_MT_WIDTH_MINOR", 0x34: "ABS_MT_ORIENTATION", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y",
        0x37: "ABS_MT_TOOL_TYPE", 0x38: "ABS_MT_BLOB_ID", 0x39: "ABS_MT_TRACKING_ID", 0x3a: "ABS_MT_PRESSURE",
        0x3b: "ABS_MT_DISTANCE", 0x3c: "ABS_MT_TOOL_X", 0x3d: "ABS_MT_TOOL_Y",
    ]
}
