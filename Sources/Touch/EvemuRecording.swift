import Quoting

/// A recording in evemu-record's text format: a device description (`N:` name, `I:` id,
/// `P:` property bytes, `B:` event bitmasks, `A:` axes) and `E:` events. `#` starts a comment,
/// at the start of a line or after an `E:` line's fields. Unknown line kinds are skipped so newer
/// evemu versions still load. Lines end in LF or CRLF.
public struct EvemuRecording: Hashable, Sendable {
    public var device: DeviceDescription
    public var events: [InputEvent]

    public init(device: DeviceDescription, events: [InputEvent]) {
        self.device = device
        self.events = events
    }

    /// A recording whose header and events are in one text (`*.evemu`, evemu 1.2 and later).
    public static func parse(text: String) throws -> EvemuRecording {
        var parser = Parser(part: nil)
        try parser.parse(text)
        return EvemuRecording(device: parser.device, events: parser.events)
    }

    /// The old split format: the header in a `.desc` file, the events in an `.events` file.
    public static func parse(description: String, events: String) throws -> EvemuRecording {
        var header = Parser(part: .description)
        try header.parse(description)
        var body = Parser(part: .events)
        try body.parse(events)
        return EvemuRecording(device: header.device, events: header.events + body.events)
    }

    /// The events on the simulation's clock: the first at `start`, the rest keeping their spacing.
    /// An event stamped earlier than the one before it happens at the same time as that one.
    public func replayEvents(firstEventAt start: Double = 0.5) -> [InputEvent] {
        InputEvent.rebased(events, firstEventAt: start)
    }

    /// How many events are stamped earlier than the event before them (a recording edited by hand,
    /// or joined from two): they are replayed in file order, and the replay says so once.
    public var outOfOrderEvents: Int {
        zip(events, events.dropFirst()).count { $1.time < $0.time }
    }
}

/// A malformed line in an evemu recording.
public struct EvemuParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which text of the split format the line is in (nil for a single-file recording).
    public enum Part: String, Hashable, Sendable {
        case description
        case events
    }

    public var part: Part?
    /// 1-based.
    public var line: Int
    public var reason: String

    public var description: String {
        let place = part.map { "\($0.rawValue) " } ?? ""
        return "evemu \(place)line \(line): \(reason)"
    }
}

private struct Parser {
    let part: EvemuParseError.Part?
    var device = DeviceDescription()
    var events: [InputEvent] = []
    /// Bytes already read per `B:` type: a type's bitmask spans several lines.
    private var bitmaskBytes: [UInt16: Int] = [:]
    private var propertyBytes = 0

    init(part: EvemuParseError.Part?) {
        self.part = part
    }

    mutating func parse(_ text: String) throws {
        var number = 0
        // A String sees CRLF as one Character, which is a newline like LF.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            guard line.count >= 2, line.dropFirst().first == ":", let kind = line.first else { continue }
            // A name may contain '#'; on every other line it starts a comment.
            let rest = kind == "N" ? line.dropFirst(2) : line.dropFirst(2).prefix { $0 != "#" }
            do {
                switch kind {
                case "N": device.name = rest.trimmingSpaces()
                case "I": try parseID(rest)
                case "P": try parseProperties(rest)
                case "B": try parseBitmask(rest)
                case "A": try parseAxis(rest)
                case "E": try parseEvent(rest)
                default: continue  // a kind this parser doesn't know, e.g. from a newer evemu
                }
            } catch let reason as Reason {
                throw EvemuParseError(part: part, line: number, reason: "\(reason.text) in '\(Excerpt(line))'")
            }
        }
    }

    private mutating func parseID(_ rest: Substring) throws {
        let fields = try Parser.fields(rest, count: 4...4, usage: "I: <bus> <vendor> <product> <version> (hex)")
        let values = try fields.map { try Parser.hex($0, max: UInt16.max, what: "id field") }
        device.id = .init(bus: values[0], vendor: values[1], product: values[2], version: values[3])
    }

    private mutating func parseProperties(_ rest: Substring) throws {
        let bytes = try Parser.fields(rest, count: 1...Int.max, usage: "P: <byte> ... (hex)")
            .map { try Parser.hex($0, max: UInt8.max, what: "property byte") }
        for bit in Parser.bits(of: bytes, startingAtByte: propertyBytes) {
            guard let property = UInt16(exactly: bit) else { throw Reason("property bitmask too long") }
            device.properties.insert(property)
        }
        propertyBytes += bytes.count
    }

    private mutating func parseBitmask(_ rest: Substring) throws {
        let fields = try Parser.fields(rest, count: 2...Int.max, usage: "B: <type> <byte> ... (hex)")
        let type = try Parser.hex(fields[0], max: UInt16(EventType.max), what: "event type")
        let bytes = try fields.dropFirst().map { try Parser.hex($0, max: UInt8.max, what: "bitmask byte") }
        let offset = bitmaskBytes[type, default: 0]
        var codes = device.events[type, default: []]
        for bit in Parser.bits(of: bytes, startingAtByte: offset) {
            guard let code = UInt16(exactly: bit) else { throw Reason("bitmask for type \(type) too long") }
            codes.insert(code)
        }
        device.events[type] = codes
        bitmaskBytes[type] = offset + bytes.count
    }

    private mutating func parseAxis(_ rest: Substring) throws {
        // Files from before evemu 1.1 have no resolution column.
        let fields = try Parser.fields(rest, count: 5...6,
                                       usage: "A: <code (hex)> <min> <max> <fuzz> <flat> [<resolution>]")
        let code = try Parser.hex(fields[0], max: AbsCode.max, what: "axis code")
        let numbers = try fields.dropFirst().map { try Parser.decimal($0, what: "axis value") }
        device.axes[code] = .init(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                                  resolution: numbers.count > 4 ? numbers[4] : 0)
    }

    private mutating func parseEvent(_ rest: Substring) throws {
        let fields = try Parser.fields(rest, count: 4...4,
                                       usage: "E: <sec>.<usec> <type (hex)> <code (hex)> <value (decimal)>")
        let time = try Parser.timestamp(fields[0])
        let type = try Parser.hex(fields[1], max: UInt16.max, what: "event type")
        let code = try Parser.hex(fields[2], max: UInt16.max, what: "event code")
        let value = try Parser.decimal(fields[3], what: "event value")
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    // MARK: Fields

    private struct Reason: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    private static func fields(_ rest: Substring, count: ClosedRange<Int>, usage: String) throws -> [Substring] {
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard count.contains(fields.count) else { throw Reason("expected \(usage)") }
        return fields
    }

    private static func hex<T: FixedWidthInteger>(_ field: Substring, max: T, what: String) throws -> T {
        guard let value = UInt64(field, radix: 16), value <= UInt64(max) else {
            throw Reason("\(what) '\(Excerpt(field))' is not a hex number up to \(String(UInt64(max), radix: 16))")
        }
        return T(value)
    }

    private static func decimal(_ field: Substring, what: String) throws -> Int32 {
        guard let value = Int32(field) else { throw Reason("\(what) '\(Excerpt(field))' is not a 32-bit decimal number") }
        return value
    }

    /// `<sec>.<usec>`: evemu prints the timeval as `%lu.%06u`.
    private static func timestamp(_ field: Substring) throws -> Double {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = UInt64(parts[0]), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let fraction = Double("0." + parts[1])
        else { throw Reason("timestamp '\(Excerpt(field))' is not <seconds>.<microseconds>") }
        return Double(seconds) + fraction
    }

    /// Bit numbers set in `bytes`, the bytes being part of a little-endian bitmask that starts
    /// `startingAtByte` bytes earlier (evemu prints a mask as bytes, lowest first).
    private static func bits(of bytes: [UInt8], startingAtByte offset: Int) -> [Int] {
        var bits: [Int] = []
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                bits.append((offset + index) * 8 + bit)
            }
        }
        return bits
    }
}

private extension Substring {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
