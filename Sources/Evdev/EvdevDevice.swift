import CLinux
import Glibc
import Linux
import SystemPackage
import Touch

/// An open /dev/input/event* node: what it is (from the EVIOCG* ioctls) and its events. Owns the
/// descriptor; `close()` releases the grab and the descriptor, and its user must call it (an open
/// device at deinit asserts in debug builds).
public final class EvdevDevice {
    public let path: String
    public let description: DeviceDescription
    private let descriptor: OwnedDescriptor
    private var grabbed = false

    /// Opens the node non-blocking and reads its capabilities. Throws SystemError (EACCES when
    /// the user is not in group input, ENOENT/ENODEV when it went away).
    public init(path: String) throws {
        self.path = path
        let fd = try systemCall("open", path: path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        descriptor = OwnedDescriptor(rawValue: fd, name: path)
        do {
            description = try Self.describe(fd, path: path)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// Releases the grab and closes the descriptor: the reverse of `init` and `grab()`.
    public func close() {
        guard descriptor.isOpen else { return }
        if grabbed { _ = vitrine_eviocgrab(fileDescriptor, 0) }
        grabbed = false
        try? descriptor.close()
    }

    /// The descriptor, -1 once closed.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// EVIOCGRAB: nothing else (the console, another program) sees this device's events.
    public func grab() throws {
        try systemCall("EVIOCGRAB", path: path) { vitrine_eviocgrab(fileDescriptor, 1) }
        grabbed = true
    }

    /// Timestamps events with CLOCK_MONOTONIC, the clock the scene's animations run on.
    public func useMonotonicClock() throws {
        try systemCall("EVIOCSCLOCKID", path: path) { vitrine_eviocsclockid(fileDescriptor, CLOCK_MONOTONIC) }
    }

    /// Drains what is readable now. Throws SystemError with ENODEV when the device was unplugged.
    public func readEvents() throws -> [InputEvent] {
        var events: [InputEvent] = []
        let size = MemoryLayout<input_event>.stride
        var buffer = [input_event](repeating: input_event(), count: 64)
        while true {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { raw in
                    try systemCall("read", path: path) { read(fileDescriptor, raw.baseAddress, raw.count) }
                }
            } catch let error as SystemError where error.errno == .resourceTemporarilyUnavailable {
                return events
            }
            if n == 0 { throw SystemError("read", path: path, errno: .operationNotSupportedByDevice) }
            for raw in buffer.prefix(n / size) {
                events.append(InputEvent(time: Double(raw.time.tv_sec) + Double(raw.time.tv_usec) / 1e6,
                                         type: raw.type, code: raw.code, value: raw.value))
            }
            if n < buffer.count * size { return events }
        }
    }

    /// EVIOCGMTSLOTS: the current value of one ABS_MT_* axis in every slot, for resynchronising
    /// after SYN_DROPPED.
    public func slotValues(_ code: UInt16) throws -> [Int32] {
        // The device's own number (Int32.max on a broken driver): as many slots as the decoder keeps.
        let slots = min(Int(description.axes[AbsCode.mtSlot]?.maximum ?? 0) + 1, TouchDecoder.maximumSlots)
        guard slots > 0 else { return [] }
        var values = [Int32](repeating: 0, count: slots + 1)
        values[0] = Int32(code)
        try systemCall("EVIOCGMTSLOTS", path: path) { vitrine_eviocgmtslots(fileDescriptor, &values, UInt(slots)) }
        return Array(values.dropFirst())
    }

    /// The current state of one absolute axis (EVIOCGABS), e.g. ABS_MT_SLOT after SYN_DROPPED.
    public func axis(_ code: UInt16) throws -> DeviceDescription.Axis {
        var info = input_absinfo()
        try systemCall("EVIOCGABS", path: path) { vitrine_eviocgabs(fileDescriptor, UInt32(code), &info) }
        return DeviceDescription.Axis(value: info.value, minimum: info.minimum, maximum: info.maximum,
                                      fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
    }

    /// Keys and buttons that are down now (EVIOCGKEY).
    public func keysDown() throws -> Set<UInt16> {
        var bits = [UInt8](repeating: 0, count: 96)
        try systemCall("EVIOCGKEY", path: path) { vitrine_eviocgkey(fileDescriptor, &bits, UInt(bits.count)) }
        return Self.bitSet(bits)
    }

    private static func describe(_ fd: Int32, path: String) throws -> DeviceDescription {
        var nameBytes = [CChar](repeating: 0, count: 256)
        _ = vitrine_eviocgname(fd, &nameBytes, UInt(nameBytes.count - 1))
        var id = input_id()
        try systemCall("EVIOCGID", path: path) { vitrine_eviocgid(fd, &id) }
        var properties = [UInt8](repeating: 0, count: 8)
        _ = vitrine_eviocgprop(fd, &properties, UInt(properties.count))

        var events: [UInt16: Set<UInt16>] = [:]
        var typeBits = [UInt8](repeating: 0, count: 8)
        try systemCall("EVIOCGBIT", path: path) { vitrine_eviocgbit(fd, 0, &typeBits, UInt(typeBits.count)) }
        events[EventType.syn] = bitSet(typeBits)
        for type in [EventType.key, EventType.abs, EventType.rel, EventType.msc] where events[EventType.syn]!.contains(type) {
            var bits = [UInt8](repeating: 0, count: 96)
            try systemCall("EVIOCGBIT", path: path) { vitrine_eviocgbit(fd, UInt32(type), &bits, UInt(bits.count)) }
            events[type] = bitSet(bits)
        }
        var axes: [UInt16: DeviceDescription.Axis] = [:]
        for code in events[EventType.abs] ?? [] {
            var info = input_absinfo()
            if vitrine_eviocgabs(fd, UInt32(code), &info) == 0 {
                axes[code] = DeviceDescription.Axis(value: info.value, minimum: info.minimum, maximum: info.maximum,
                                                    fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
            }
        }
        let name = String(decoding: nameBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return DeviceDescription(
            name: name, id: DeviceDescription.ID(bus: id.bustype, vendor: id.vendor, product: id.product, version: id.version),
            properties: bitSet(properties), events: events, axes: axes)
    }

    private static func bitSet(_ bytes: [UInt8]) -> Set<UInt16> {
        var set = Set<UInt16>()
        for (i, byte) in bytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
        }
        return set
    }
}
