import Geometry
import Testing
@testable import Touch

/// Values at the ends of their types, from a device, a recording or a calibration (issue #22):
/// each gives a clear error or a clamped, sane result, never a trap.
@Suite struct ExtremeValueTests {
    static let screen = Size(width: 1000, height: 800)

    /// A protocol B panel whose every axis spans all of Int32 (max - min overflows Int32) and
    /// whose slot axis claims Int32.max slots.
    static let widestPanel = DeviceDescription(name: "widest", properties: [InputProperty.direct], events: [
        EventType.syn: [EventType.syn, EventType.key, EventType.abs],
        EventType.key: [KeyCode.btnTouch],
        EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID],
    ], axes: [
        AbsCode.x: .init(value: .min, minimum: .min, maximum: .max), AbsCode.y: .init(value: .max, minimum: .min, maximum: .max),
        AbsCode.mtSlot: .init(value: .max, minimum: 0, maximum: .max),
        AbsCode.mtPositionX: .init(minimum: .min, maximum: .max), AbsCode.mtPositionY: .init(minimum: .min, maximum: .max),
        AbsCode.mtTrackingID: .init(minimum: .min, maximum: .max),
    ])

    static func isOnScreen(_ point: Point) -> Bool {
        (0...screen.width).contains(point.x) && (0...screen.height).contains(point.y)
    }

    @Test func evdevValuesAtInt32sEndsAreContactsOnScreen() throws {
        var decoder = try TouchDecoder(device: Self.widestPanel, transform: TouchTransform(device: Self.widestPanel, screen: Self.screen))
        var frames: [TouchFrame] = []
        let values: [Int32] = [.min, .max, -1, 0, .min + 1, .max - 1]
        for (index, value) in values.enumerated() {
            let time = Double(index)
            for event: (UInt16, Int32) in [(AbsCode.mtSlot, value), (AbsCode.mtSlot, 0), (AbsCode.mtTrackingID, value == -1 ? 5 : value),
                                           (AbsCode.mtPositionX, value), (AbsCode.mtPositionY, value == .min ? .max : .min)] {
                _ = decoder.feed(InputEvent(time: time, type: EventType.abs, code: event.0, value: event.1))
            }
            if let frame = decoder.feed(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0)) { frames.append(frame) }
        }
        #expect(!frames.isEmpty)
        for frame in frames {
            for contact in frame.contacts { #expect(Self.isOnScreen(contact.position), "\(contact)") }
        }
        // The slot axis's Int32.max slots are capped; a slot number past them is ignored.
        _ = decoder.feed(InputEvent(time: 9, type: EventType.abs, code: AbsCode.mtSlot, value: .max))
        _ = decoder.feed(InputEvent(time: 9, type: EventType.abs, code: AbsCode.mtPositionX, value: 7))
        _ = decoder.feed(InputEvent(time: 9, type: EventType.syn, code: SynCode.report, value: 0))
    }

    @Test func anAxisWithItsMinimumAboveItsMaximumIsAClearError() {
        #expect(throws: TouchTransformError.emptyAxisRange(Int32.max...Int32.max)) {
            try TouchTransform(screen: Self.screen, xRange: Int32.max...Int32.max, yRange: 0...10)
        }
        let upsideDown = DeviceDescription(name: "upside down", properties: [InputProperty.direct], events: [
            EventType.syn: [EventType.syn, EventType.key, EventType.abs], EventType.key: [KeyCode.btnTouch],
            EventType.abs: [AbsCode.x, AbsCode.y],
        ], axes: [AbsCode.x: .init(minimum: .max, maximum: .min), AbsCode.y: .init(minimum: 0, maximum: 100)])
        #expect(throws: TouchTransformError.self) { try TouchTransform(device: upsideDown, screen: Self.screen) }
    }

    /// A matrix of 1e308 passes as finite, but its products overflow to infinities of both signs,
    /// whose sum is NaN: every point still lands on the screen.
    @Test func aCalibrationOf1e308PutsEveryTouchOnTheScreen() throws {
        for calibration in [[1e308, 1e308, -1e308, 1e308, -1e308, 1e308], [1e308, 0, 0, 0, 1e308, 0],
                            [-1e308, -1e308, 0, Double.greatestFiniteMagnitude, 0, -Double.greatestFiniteMagnitude]] {
            let transform = try TouchTransform(screen: Self.screen, xRange: Int32.min...Int32.max, yRange: 0...1,
                                               calibration: calibration)
            for x: Int32 in [.min, -1, 0, 1, .max] {
                for y: Int32 in [0, 1] {
                    let point = transform.point(x: x, y: y)
                    #expect(Self.isOnScreen(point), "\(calibration) at (\(x), \(y)): \(point)")
                }
            }
            #expect(Self.isOnScreen(transform.point(normalisedX: .nan, normalisedY: .infinity)))
        }
        #expect(throws: TouchTransformError.self) {
            try TouchTransform(screen: Self.screen, xRange: 0...1, yRange: 0...1, calibration: [.infinity, 0, 0, 0, 1, 0])
        }
    }

    /// Frames from anywhere (made up, or a decoded recording) write a recording that reads back:
    /// positions, ids and times past what evdev holds are clamped, never a trap.
    @Test func theWriterClampsPositionsIdsAndTimesPastEvdevsRange() throws {
        let wild = [Point(x: .nan, y: .infinity), Point(x: -.infinity, y: 1e308), Point(x: -1e308, y: 3e9), Point(x: 5, y: 6)]
        var frames: [TouchFrame] = []
        for (index, point) in wild.enumerated() {
            frames.append(TouchFrame(time: [Double.nan, -5, 1e300, .infinity][index],
                                     contacts: [TouchContact(id: [Int.max, Int.min, 3, 4][index], position: point)]))
        }
        frames.append(TouchFrame(time: .greatestFiniteMagnitude, contacts: []))
        let text = EvemuWriter.touchscreen(name: "wild", screen: Size(width: 1e300, height: .nan), frames: frames)
        let recording = try EvemuRecording.parse(text: text)
        #expect(recording.events.allSatisfy { $0.time >= 0 && $0.time <= EvemuWriter.latestTime })
        #expect(text.contains("A: 00 0 2147483647 0 0 0\n"))  // the screen's width, clamped
        #expect(text.contains("A: 01 0 1 0 0 0\n"))           // NaN height: 1
        #expect(text.contains(" 0036 2147483647\n") && text.contains(" 0035 -2147483648\n"))
    }

    /// A recording's times up to the largest evemu can print: parsed, and replayed from 0.5 s on.
    @Test func aRecordingWithHugeTimesParsesAndRebases() throws {
        let header = EvemuWriter.touchscreen(name: "panel", screen: Self.screen, frames: [])
        let text = header + "E: 18446744073709551615.999999 0003 0035 2147483647\n"
            + "E: 18446744073709551615.999999 0000 0000 0\n" + "E: 0.000001 0003 0035 -2147483648\n"
        let recording = try EvemuRecording.parse(text: text)
        #expect(recording.events.count == 3)
        #expect(recording.outOfOrderEvents == 1)
        let replayed = recording.replayEvents(firstEventAt: 0.5)
        #expect(replayed.allSatisfy { $0.time.isFinite && $0.time >= 0.5 })
        #expect(throws: EvemuParseError.self) {
            try EvemuRecording.parse(text: header + "E: 18446744073709551616.000000 0003 0035 1\n")
        }
        #expect(throws: EvemuParseError.self) {
            try EvemuRecording.parse(text: header + "E: 1.0 0003 0035 2147483648\n")
        }
    }
}
