import Geometry
import Quoting

/// Turns a device's evdev events into `TouchFrame`s in screen pixels.
///
/// Events are staged and committed only at SYN_REPORT, so nothing acts on half a frame; a frame is
/// returned at a SYN_REPORT when the contacts (ids or positions) differ from the last one.
///
/// - Protocol B: per-slot state; ABS_MT_SLOT picks the slot, ABS_MT_TRACKING_ID -1 lifts its
///   contact, positions persist in a slot (a new contact may resend only the axis that changed).
///   Contacts are listed in slot order; their id is the tracking id. The legacy ABS_X/ABS_Y and
///   BTN_TOUCH a multitouch device also sends are ignored.
/// - Protocol A: every SYN_MT_REPORT ends one anonymous contact, every frame lists all of them.
///   Ids are kept by nearest neighbour: each contact continues the closest contact of the last
///   frame within a fifth of the screen diagonal (closest pairs first); the rest get new ids.
///   A device that does report ABS_MT_TRACKING_ID in protocol A keeps its own ids. A frame keeps
///   its first `maximumContacts` contacts and drops the rest, so that a flood of SYN_MT_REPORTs
///   (a broken or hostile device, a crafted recording) costs bounded memory and linear time.
/// - Single touch: ABS_X/ABS_Y, touching while BTN_TOUCH is down; contact id 0.
/// - Absolute pointer (qemu's tablet): ABS_X/ABS_Y, touching while BTN_LEFT is down; contact id 0.
/// - eGalax quirk: some single-touch eGalax controllers (0eef:0001) declare ABS_X/ABS_Y but send
///   the position on ABS_Z/ABS_RX. If a device that declares both ABS_Z and ABS_RX sends those
///   but has never sent ABS_X/ABS_Y by the end of a frame, the decoder switches for good to
///   ABS_Z/ABS_RX and their ranges (`usesAlternatePositionAxes`).
/// - SYN_DROPPED: the events since the last SYN_REPORT and all up to and including the next one
///   are discarded, and `needsResynchronisation` is set: the caller reads the device's state back
///   (EVIOCGKEY, EVIOCGABS, EVIOCGMTSLOTS) and passes it to `resynchronise(to:time:)`. Without
///   that (a recording) decoding carries on from the last committed state.
public struct TouchDecoder: Sendable {
    public let device: DeviceDescription
    public let touchProtocol: TouchProtocol
    public private(set) var transform: TouchTransform
    /// The contacts of the last frame returned (empty before the first).
    public private(set) var contacts: [TouchContact] = []
    public private(set) var needsResynchronisation = false
    public private(set) var usesAlternatePositionAxes = false

    /// Committed at the last SYN_REPORT, and being built from the events since.
    private var committed: State
    private var pending: State
    private var droppingUntilReport = false

    private var packet = Packet()
    private var packets: [Packet] = []
    private var nextAnonymousID = 0

    private let alternateAxes: (x: ClosedRange<Int32>, y: ClosedRange<Int32>)?
    private var sawPrimaryPosition = false
    private var sawAlternatePosition = false

    /// More slots than any real panel has; bounds memory against a bogus ABS_MT_SLOT maximum.
    public static let maximumSlots = 64
    /// Contacts kept in one protocol A frame: more fingers than a hand has, fewer than a flood.
    public static let maximumContacts = 16

    public init(device: DeviceDescription, transform: TouchTransform) throws {
        guard let touchProtocol = device.touchProtocol else {
            let reason: String
            if case .unusable(let why) = device.classification { reason = why } else { reason = "no touch protocol" }
            throw TouchDecoderError.unusableDevice(name: device.name, reason: reason)
        }
        self.device = device
        self.touchProtocol = touchProtocol
        self.transform = transform

        let slotAxis = device.axes[AbsCode.mtSlot]
        let slotCount = touchProtocol == .multitouch
            ? min(max(Int(slotAxis?.maximum ?? 15) + 1, 1), TouchDecoder.maximumSlots) : 0
        let initial = State(
            slots: Array(repeating: TouchSlot(), count: slotCount),
            slot: Int(slotAxis?.value ?? 0),
            x: device.axes[AbsCode.x]?.value ?? 0, y: device.axes[AbsCode.y]?.value ?? 0,
            alternateX: device.axes[AbsCode.z]?.value ?? 0, alternateY: device.axes[AbsCode.rx]?.value ?? 0)
        committed = initial
        pending = initial

        if touchProtocol == .singleTouch || touchProtocol == .absolutePointer,
           let z = device.usableAxis(AbsCode.z)?.range, let rx = device.usableAxis(AbsCode.rx)?.range {
            alternateAxes = (z, rx)
        } else {
            alternateAxes = nil
        }
    }

    /// Takes one event; returns the new frame when it is a SYN_REPORT that changed the contacts.
    public mutating func feed(_ event: InputEvent) -> TouchFrame? {
        if event.type == EventType.syn {
            switch event.code {
            case SynCode.report:
                if droppingUntilReport {
                    droppingUntilReport = false
                    discardPending()
                    return nil
                }
                return commit(time: event.time)
            case SynCode.dropped:
                droppingUntilReport = true
                needsResynchronisation = true
                discardPending()
            case SynCode.mtReport where !droppingUntilReport && touchProtocol == .multitouchProtocolA:
                endPacket()
            default:
                break
            }
            return nil
        }
        guard !droppingUntilReport else { return nil }
        switch event.type {
        case EventType.abs: applyAbsolute(code: event.code, value: event.value)
        case EventType.key: applyKey(code: event.code, down: event.value != 0)
        default: break
        }
        return nil
    }

    /// Replaces the state with the device's own after SYN_DROPPED (or right after opening it, to
    /// start from what is on the panel). Returns a frame when the contacts changed meanwhile.
    public mutating func resynchronise(to state: DeviceState, time: Double) -> TouchFrame? {
        needsResynchronisation = false
        var fresh = committed
        switch touchProtocol {
        case .multitouch:
            for index in fresh.slots.indices {
                fresh.slots[index] = index < state.slots.count ? state.slots[index] : TouchSlot()
            }
            fresh.slot = Int(state.absoluteValues[AbsCode.mtSlot] ?? Int32(fresh.slot))
        case .multitouchProtocolA:
            // Every protocol A frame lists all contacts: the next one is the state.
            return nil
        case .singleTouch, .absolutePointer:
            fresh.x = state.absoluteValues[AbsCode.x] ?? fresh.x
            fresh.y = state.absoluteValues[AbsCode.y] ?? fresh.y
            fresh.alternateX = state.absoluteValues[AbsCode.z] ?? fresh.alternateX
            fresh.alternateY = state.absoluteValues[AbsCode.rx] ?? fresh.alternateY
            fresh.touching = state.keysDown.contains(KeyCode.btnTouch)
            fresh.buttonDown = state.keysDown.contains(KeyCode.btnLeft)
        }
        committed = fresh
        pending = fresh
        return publish(contacts(of: committed), time: time)
    }

    /// Lifts every contact, e.g. when the device vanished. Returns the empty frame if any
    /// contact was down.
    public mutating func reset(time: Double) -> TouchFrame? {
        for index in committed.slots.indices { committed.slots[index].trackingID = -1 }
        committed.touching = false
        committed.buttonDown = false
        pending = committed
        packet = Packet()
        packets = []
        droppingUntilReport = false
        needsResynchronisation = false
        return publish([], time: time)
    }

    // MARK: Staging

    private mutating func applyAbsolute(code: UInt16, value: Int32) {
        switch touchProtocol {
        case .multitouch:
            if code == AbsCode.mtSlot {
                pending.slot = Int(value)
                return
            }
            guard pending.slots.indices.contains(pending.slot) else { return }
            switch code {
            case AbsCode.mtTrackingID: pending.slots[pending.slot].trackingID = value
            case AbsCode.mtPositionX: pending.slots[pending.slot].x = value
            case AbsCode.mtPositionY: pending.slots[pending.slot].y = value
            case AbsCode.mtToolType: pending.slots[pending.slot].toolType = value
            default: break
            }
        case .multitouchProtocolA:
            switch code {
            case AbsCode.mtTrackingID: packet.trackingID = value
            case AbsCode.mtPositionX: packet.x = value
            case AbsCode.mtPositionY: packet.y = value
            case AbsCode.mtToolType: packet.toolType = value
            default: break
            }
        case .singleTouch, .absolutePointer:
            switch code {
            case AbsCode.x: pending.x = value; sawPrimaryPosition = true
            case AbsCode.y: pending.y = value; sawPrimaryPosition = true
            case AbsCode.z where alternateAxes != nil: pending.alternateX = value; sawAlternatePosition = true
            case AbsCode.rx where alternateAxes != nil: pending.alternateY = value; sawAlternatePosition = true
            default: break
            }
        }
    }

    private mutating func applyKey(code: UInt16, down: Bool) {
        switch code {
        case KeyCode.btnTouch: pending.touching = down
        case KeyCode.btnLeft: pending.buttonDown = down
        default: break
        }
    }

    private mutating func endPacket() {
        // An empty packet (some drivers send one for "no contacts") or half a position is no contact.
        if packet.x != nil, packet.y != nil, packets.count < Self.maximumContacts { packets.append(packet) }
        packet = Packet()
    }

    private mutating func discardPending() {
        pending = committed
        packet = Packet()
        packets = []
    }

    // MARK: Committing

    private mutating func commit(time: Double) -> TouchFrame? {
        if !usesAlternatePositionAxes, sawAlternatePosition, !sawPrimaryPosition, let alternateAxes,
           let switched = try? transform.withAxisRanges(x: alternateAxes.x, y: alternateAxes.y) {
            transform = switched
            usesAlternatePositionAxes = true
        }
        committed = pending
        if touchProtocol == .multitouchProtocolA {
            endPacket()
            let frame = publish(trackAnonymous(packets), time: time)
            packets = []
            return frame
        }
        return publish(contacts(of: committed), time: time)
    }

    private mutating func publish(_ newContacts: [TouchContact], time: Double) -> TouchFrame? {
        guard newContacts != contacts else { return nil }
        contacts = newContacts
        return TouchFrame(time: time, contacts: newContacts)
    }

    private func contacts(of state: State) -> [TouchContact] {
        switch touchProtocol {
        case .multitouch:
            return state.slots.filter(\.isContact).map {
                TouchContact(id: Int($0.trackingID), position: transform.point(x: $0.x, y: $0.y))
            }
        case .multitouchProtocolA:
            return contacts
        case .singleTouch, .absolutePointer:
            let down = touchProtocol == .singleTouch ? state.touching : state.buttonDown
            guard down else { return [] }
            let position = usesAlternatePositionAxes
                ? transform.point(x: state.alternateX, y: state.alternateY)
                : transform.point(x: state.x, y: state.y)
            return [TouchContact(id: 0, position: position)]
        }
    }

    /// Gives protocol A's anonymous contacts ids that continue the last frame's contacts.
    private mutating func trackAnonymous(_ packets: [Packet]) -> [TouchContact] {
        let fingers = packets.filter { $0.toolType != MTToolType.palm }
        let positions = fingers.map { transform.point(x: $0.x ?? 0, y: $0.y ?? 0) }
        if fingers.allSatisfy({ $0.trackingID != nil }) {
            return zip(fingers, positions).compactMap { finger, position in
                guard let id = finger.trackingID, id >= 0 else { return nil }
                return TouchContact(id: Int(id), position: position)
            }
        }

        let reach = 0.2 * (transform.screen.width * transform.screen.width
            + transform.screen.height * transform.screen.height).squareRoot()
        var pairs: [(new: Int, old: Int, distance: Double)] = []
        for (newIndex, position) in positions.enumerated() {
            for (oldIndex, old) in contacts.enumerated() {
                let distance = position.distance(to: old.position)
                if distance <= reach { pairs.append((newIndex, oldIndex, distance)) }
            }
        }
        pairs.sort { $0.distance < $1.distance }
        var ids = [Int?](repeating: nil, count: positions.count)
        var taken = Set<Int>()
        for pair in pairs where ids[pair.new] == nil && !taken.contains(pair.old) {
            ids[pair.new] = contacts[pair.old].id
            taken.insert(pair.old)
        }
        var tracked: [TouchContact] = []
        for (index, position) in positions.enumerated() {
            let id = ids[index] ?? newAnonymousID()
            tracked.append(TouchContact(id: id, position: position))
        }
        return tracked.sorted { $0.id < $1.id }
    }

    private mutating func newAnonymousID() -> Int {
        defer { nextAnonymousID = nextAnonymousID == Int.max ? 0 : nextAnonymousID + 1 }
        return nextAnonymousID
    }
}

public enum TouchDecoderError: Error, Hashable, Sendable, CustomStringConvertible {
    case unusableDevice(name: String, reason: String)

    public var description: String {
        switch self {
        case .unusableDevice(let name, let reason): return "input device '\(Excerpt(name))' cannot be decoded: \(reason)"
        }
    }
}

/// What the decoder knows about the panel, committed or pending.
private struct State: Sendable {
    var slots: [TouchSlot]
    /// The slot ABS_MT_* events go to; may be out of range, then they are ignored.
    var slot: Int
    var x: Int32
    var y: Int32
    /// ABS_Z/ABS_RX, for the eGalax quirk.
    var alternateX: Int32
    var alternateY: Int32
    var touching = false
    var buttonDown = false
}

/// One protocol A contact, between two SYN_MT_REPORTs.
private struct Packet: Sendable {
    var x: Int32?
    var y: Int32?
    var trackingID: Int32?
    var toolType: Int32?
}
