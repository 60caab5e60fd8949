import Geometry

/// Writes touch frames (made-up gestures, say) as an evemu-record text file of a multitouch
/// screen (protocol B), which `simulate --replay` and `EvemuRecording.parse` read back. The
/// device's axes run from 0 to the screen's width and height, so on a screen of that size a
/// device unit is a pixel and the frames come back at whole-pixel positions; each frame is one
/// SYN_REPORT at its own time, a finger's id its tracking id in a slot of its own.
///
/// Whatever the frames hold, the text is a valid recording: positions, ids and the screen are
/// clamped to the 32-bit values evdev has, times to 0 up to `latestTime` (NaN is 0), never a trap.
public enum EvemuWriter {
    /// The latest time written: a billion seconds, about 31 years of the monotonic clock.
    public static let latestTime = 1e9

    public static func touchscreen(name: String, screen: Size, frames: [TouchFrame], comment: String? = nil) -> String {
        let width = max(1, Int32(saturating: screen.width.rounded())), height = max(1, Int32(saturating: screen.height.rounded()))
        var text = "# EVEMU 1.3\n"
        if let comment { text += comment.split(separator: "\n").map { "# \($0)\n" }.joined() }
        text += "N: \(name)\nI: 0003 0000 0000 0001\nP: 02 00 00 00 00 00 00 00\n"
        text += "B: 00 0b 00 00 00 00 00 00 00\n"
        text += bitmask(type: EventType.key, codes: [KeyCode.btnTouch], bytes: 96)
        text += bitmask(type: EventType.abs, codes: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX,
                                                     AbsCode.mtPositionY, AbsCode.mtTrackingID], bytes: 8)
        let slots = 10
        for (code, maximum) in [(AbsCode.x, width), (AbsCode.y, height), (AbsCode.mtSlot, Int32(slots - 1)),
                                (AbsCode.mtPositionX, width), (AbsCode.mtPositionY, height),
                                (AbsCode.mtTrackingID, 65535)] {
            text += "A: \(hex(code, 2)) 0 \(maximum) 0 0 0\n"
        }
        var slotOfID: [Int: Int] = [:]
        var lastPosition: [Int: (Int32, Int32)] = [:]
        var touching = false
        for frame in frames {
            var events: [(UInt16, UInt16, Int32)] = []
            let ids = Set(frame.contacts.map(\.id))
            for (id, slot) in slotOfID.sorted(by: { $0.value < $1.value }) where !ids.contains(id) {
                events += [(EventType.abs, AbsCode.mtSlot, Int32(slot)), (EventType.abs, AbsCode.mtTrackingID, -1)]
                slotOfID[id] = nil
                lastPosition[id] = nil
            }
            for contact in frame.contacts {
                let position = (Int32(saturating: contact.position.x.rounded()), Int32(saturating: contact.position.y.rounded()))
                let slot: Int
                if let known = slotOfID[contact.id] {
                    slot = known
                } else {
                    slot = (0..<slots).first { free in !slotOfID.values.contains(free) } ?? 0
                    slotOfID[contact.id] = slot
                    events += [(EventType.abs, AbsCode.mtSlot, Int32(slot)),
                               (EventType.abs, AbsCode.mtTrackingID, Int32(clamping: max(contact.id, 0)))]
                }
                if let last = lastPosition[contact.id], last == position { continue }
                if !events.contains(where: { $0.1 == AbsCode.mtSlot && $0.2 == Int32(slot) }) {
                    events.append((EventType.abs, AbsCode.mtSlot, Int32(slot)))
                }
                events += [(EventType.abs, AbsCode.mtPositionX, position.0), (EventType.abs, AbsCode.mtPositionY, position.1)]
                lastPosition[contact.id] = position
            }
            if touching != !frame.contacts.isEmpty {
                touching.toggle()
                events.append((EventType.key, KeyCode.btnTouch, touching ? 1 : 0))
            }
            events.append((EventType.syn, SynCode.report, 0))
            let microseconds = Int(saturating: (frame.time.bounded(by: 0...latestTime) * 1_000_000).rounded())
            let stamp = "\(microseconds / 1_000_000).\(String(microseconds % 1_000_000).leftPadded(to: 6))"
            for (type, code, value) in events {
                text += "E: \(stamp) \(hex(type, 4)) \(hex(code, 4)) \(value)\n"
            }
        }
        return text
    }

    /// A `B:` bitmask as evemu prints it: the bytes lowest first, 8 to a line.
    private static func bitmask(type: UInt16, codes: [UInt16], bytes count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        for code in codes { bytes[Int(code) / 8] |= 1 << (code % 8) }
        return stride(from: 0, to: count, by: 8).map { start in
            "B: \(hex(type, 2)) " + bytes[start..<min(start + 8, count)].map { hex(UInt16($0), 2) }.joined(separator: " ") + "\n"
        }.joined()
    }

    private static func hex(_ value: UInt16, _ digits: Int) -> String {
        String(value, radix: 16).leftPadded(to: digits)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
