import Foundation
import Testing
import TestSupport
@testable import Touch

@Suite struct EvemuRecordingTests {
    struct Case: Sendable, CustomStringConvertible {
        var files: [String]
        var name: String
        var events: Int
        var classification: DeviceClass
        var description: String { files.joined(separator: " + ") }
    }

    static let cases: [Case] = [
        Case(files: ["atmel_maxtouch.1-finger-fast-taps.evemu"], name: "Atmel maXTouch Touchscreen", events: 84,
             classification: .touchscreen(.multitouch)),
        Case(files: ["atmel_maxtouch.1-finger-drag-up-down.evemu"], name: "Atmel maXTouch Touchscreen", events: 502,
             classification: .touchscreen(.multitouch)),
        Case(files: ["atmel_maxtouch.2-fingers-touch-release.evemu"], name: "Atmel maXTouch Touchscreen", events: 64,
             classification: .touchscreen(.multitouch)),
        Case(files: ["atmel_maxtouch.4-finger-drag-down.evemu"], name: "Atmel maXTouch Touchscreen", events: 309,
             classification: .touchscreen(.multitouch)),
        Case(files: ["wacom_isdv4_e6_finger", "single-top-swipe"], name: "Wacom ISDv4 E6 Finger", events: 441,
             classification: .touchscreen(.multitouch)),
        Case(files: ["wacom_isdv4_e6_finger", "2fg-tap"], name: "Wacom ISDv4 E6 Finger", events: 17,
             classification: .touchscreen(.multitouch)),
        Case(files: ["wacom_isdv4_e6_finger", "double-center-scroll"], name: "Wacom ISDv4 E6 Finger", events: 545,
             classification: .touchscreen(.multitouch)),
        Case(files: ["egalax_usb_touchcontroller_resistive", ""], name: "eGalax Inc. USB TouchController", events: 1200,
             classification: .touchscreen(.singleTouch)),
        Case(files: ["ntrig_multitouch_protocolA", "2-fingers-touch-release"], name: "N-Trig MultiTouch", events: 2203,
             classification: .touchscreen(.multitouchProtocolA)),
        Case(files: ["wacom_dth2242_finger.multi-gesture.evemu"], name: "Wacom DTH2242 Finger", events: 16593,
             classification: .touchscreen(.multitouch)),
        Case(files: ["touchpad_synaptics_tm3276.pinch-out.evemu"], name: "Synaptics TM3276-022", events: 867,
             classification: .touchpad(.multitouch)),
    ]

    static func load(_ files: [String]) throws -> EvemuRecording {
        if files.count == 1 { return try Recordings.load(files[0]) }
        if files[1].isEmpty {
            return try EvemuRecording.parse(description: Recordings.text(files[0] + ".desc"),
                                            events: Recordings.text(files[0] + ".events"))
        }
        return try Recordings.load(device: files[0], events: files[1])
    }

    @Test(arguments: cases)
    func parsesEveryRecording(_ expected: Case) throws {
        let recording = try Self.load(expected.files)
        #expect(recording.device.name == expected.name)
        #expect(recording.events.count == expected.events)
        #expect(recording.device.classification == expected.classification)
        // Every recording ends with its last frame committed.
        #expect(recording.events.last?.type == EventType.syn)
        #expect(recording.events.last?.code == SynCode.report)
    }

    @Test func readsTheAtmelHeader() throws {
        let device = try Recordings.load("atmel_maxtouch.1-finger-fast-taps.evemu").device
        #expect(device.id == .init(bus: 0x18, vendor: 0, product: 0, version: 0))
        #expect(device.properties == [InputProperty.direct])
        #expect(device.events[EventType.syn] == [EventType.syn, EventType.key, EventType.abs])
        #expect(device.events[EventType.key] == [KeyCode.btnTouch])
        #expect(device.events[EventType.abs] == [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX,
                                                 AbsCode.mtPositionY, AbsCode.mtToolType, AbsCode.mtTrackingID,
                                                 AbsCode.mtDistance])
        #expect(device.axes[AbsCode.mtPositionX] == .init(minimum: 0, maximum: 799))
        #expect(device.axes[AbsCode.mtSlot]?.range == 0...9)
    }

    @Test func readsTheEGalaxHeader() throws {
        let device = try EvemuRecording.parse(description: Recordings.text("egalax_usb_touchcontroller_resistive.desc"),
                                              events: "").device
        #expect(device.id == .init(bus: 3, vendor: 0x0eef, product: 0x0001, version: 0x0210))
        #expect(device.properties.isEmpty)
        // The key mask spans twelve B: lines; these bits are on the fifth and sixth.
        #expect(device.events[EventType.key] == [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnToolPen, KeyCode.btnTouch])
        #expect(device.axes[AbsCode.z] == .init(minimum: 30, maximum: 4040))
        #expect(device.axes[AbsCode.rx] == .init(minimum: 60, maximum: 4035))
    }

    @Test func readsEventsWithTrailingCommentsAndPaddedNegativeValues() throws {
        let recording = try Recordings.load("atmel_maxtouch.1-finger-fast-taps.evemu")
        #expect(recording.events[0] == InputEvent(time: 0.000001, type: EventType.abs, code: AbsCode.mtTrackingID, value: 3))
        #expect(recording.events[7] == InputEvent(time: 0.095573, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
    }

    @Test func readsEpochTimestamps() throws {
        let recording = try Recordings.load(device: "wacom_isdv4_e6_finger", events: "2fg-tap")
        let first = try #require(recording.events.first)
        #expect(abs(first.time - 1330496004.684626) < 1e-6)
        #expect(recording.device.axes[AbsCode.x] == .init(minimum: 0, maximum: 2776, fuzz: 4))
    }

    @Test func skipsCommentsBlankLinesAndUnknownKinds() throws {
        let text = """
            # EVEMU 1.3
            N: Test Panel
            X: something a newer evemu might write

            E: 1.000000 0003 0000 5 # a comment
            E: 1.000010 0000 0000 0
            """
        let recording = try EvemuRecording.parse(text: text)
        #expect(recording.device.name == "Test Panel")
        #expect(recording.events == [InputEvent(time: 1, type: 3, code: 0, value: 5),
                                     InputEvent(time: 1.00001, type: 0, code: 0, value: 0)])
    }

    @Test(arguments: [
        ("E: 0.1 0003 0000", 3),
        ("E: 0.1 0003 zz 1", 3),
        ("E: abc 0003 0000 1", 3),
        ("E: 0.1 0003 0000 99999999999", 3),
        ("A: 40 0 10 0 0 0", 3),
        ("A: 00 0 10", 3),
        ("B: 20 00", 3),
        ("B: 01 100", 3),
        ("I: 0003 0eef", 3),
        ("P: xy", 3),
    ])
    func reportsTheLineOfAMalformedEntry(_ bad: String, _ line: Int) throws {
        let text = "N: Panel\nI: 0003 0eef 0001 0210\n\(bad)\nE: 0.2 0000 0000 0\n"
        let error = try #require(throws: EvemuParseError.self) { try EvemuRecording.parse(text: text) }
        #expect(error.line == line)
        #expect(error.part == nil)
        #expect(error.description.contains("line \(line)"))
    }

    /// A 50 MB number in one line once made a 100 MB message; the message quotes excerpts only
    /// (each `HUGE` is 200 kB of one digit here: a debug build parses slowly).
    @Test(arguments: ["E: 0.1 0003 0035 HUGE", "E: HUGE.5 0003 0035 1", "I: 0003 HUGE 0001 0210"])
    func quotesABoundedExcerptOfAHugeLine(_ template: String) throws {
        let bad = template.replacingOccurrences(of: "HUGE", with: String(repeating: "1", count: 200_000))
        let text = "N: Panel\nI: 0003 0eef 0001 0210\n\(bad)\n"
        let error = try #require(throws: EvemuParseError.self) { try EvemuRecording.parse(text: text) }
        #expect(error.line == 3)
        #expect(error.description.utf8.count < 800)
        #expect(error.description.contains("bytes cut"))
    }

    @Test func namesThePartOfASplitRecording() throws {
        let error = try #require(throws: EvemuParseError.self) {
            try EvemuRecording.parse(description: "N: Panel\n", events: "E: 0.1 0000 0000 0\nE: 0.2 0000\n")
        }
        #expect(error == EvemuParseError(part: .events, line: 2, reason: error.reason))
        #expect(error.description.hasPrefix("evemu events line 2:"))
    }

    @Test func rebasesTheFirstEventToHalfASecond() throws {
        let recording = try Recordings.load(device: "wacom_isdv4_e6_finger", events: "2fg-tap")
        let replay = recording.replayEvents()
        #expect(replay.count == recording.events.count)
        #expect(replay.first?.time == 0.5)
        let last = try #require(replay.last?.time)
        // 1330496004.716634 - 1330496004.684626
        #expect(abs(last - (0.5 + 0.032008)) < 1e-6)
        #expect(zip(replay, recording.events).allSatisfy {
            $0.type == $1.type && $0.code == $1.code && $0.value == $1.value
        })
        #expect(zip(replay, replay.dropFirst()).allSatisfy { $0.time <= $1.time })
    }
}
