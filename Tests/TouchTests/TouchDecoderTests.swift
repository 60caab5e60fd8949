import Geometry
import Testing
@testable import Touch

/// The decoder on synthetic event streams, for cases the recordings don't contain.
@Suite struct TouchDecoderTests {
    static let screen = Size(width: 1000, height: 1000)

    /// A protocol B panel with `slots` slots and 0...1000 axes (1 unit = 1 px), also sending the
    /// legacy single-touch axes.
    static func multitouchPanel(slots: Int32 = 4) -> DeviceDescription {
        DeviceDescription(name: "panel", properties: [InputProperty.direct], events: [
            EventType.syn: [EventType.syn, EventType.key, EventType.abs],
            EventType.key: [KeyCode.btnTouch],
            EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY,
                            AbsCode.mtTrackingID, AbsCode.mtToolType],
        ], axes: [
            AbsCode.x: .init(minimum: 0, maximum: 1000), AbsCode.y: .init(minimum: 0, maximum: 1000),
            AbsCode.mtSlot: .init(minimum: 0, maximum: slots - 1),
            AbsCode.mtPositionX: .init(minimum: 0, maximum: 1000), AbsCode.mtPositionY: .init(minimum: 0, maximum: 1000),
            AbsCode.mtTrackingID: .init(minimum: 0, maximum: 65535), AbsCode.mtToolType: .init(minimum: 0, maximum: 2),
        ])
    }

    /// qemu's virtio/USB tablet: absolute axes and mouse buttons, no BTN_TOUCH.
    static let qemuTablet = DeviceDescription(name: "QEMU Virtio Tablet", events: [
        EventType.syn: [EventType.syn, EventType.key, EventType.rel, EventType.abs],
        EventType.key: [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle],
        EventType.rel: [0x08],
        EventType.abs: [AbsCode.x, AbsCode.y],
    ], axes: [AbsCode.x: .init(minimum: 0, maximum: 32767), AbsCode.y: .init(minimum: 0, maximum: 32767)])

    static let resistivePanel = DeviceDescription(name: "resistive", events: [
        EventType.syn: [EventType.syn, EventType.key, EventType.abs],
        EventType.key: [KeyCode.btnTouch],
        EventType.abs: [AbsCode.x, AbsCode.y],
    ], axes: [AbsCode.x: .init(minimum: 0, maximum: 1000), AbsCode.y: .init(minimum: 0, maximum: 1000)])

    /// A protocol A panel (anonymous contacts, SYN_MT_REPORT) with 0...1000 axes.
    static let protocolAPanel = DeviceDescription(name: "mt-a", events: [
        EventType.syn: [EventType.syn, EventType.abs],
        EventType.abs: [AbsCode.mtPositionX, AbsCode.mtPositionY],
    ], axes: [AbsCode.mtPositionX: .init(minimum: 0, maximum: 1000),
              AbsCode.mtPositionY: .init(minimum: 0, maximum: 1000)])

    static func decoder(_ device: DeviceDescription) throws -> TouchDecoder {
        try TouchDecoder(device: device, transform: TouchTransform(device: device, screen: screen))
    }

    /// Feeds `events` (type, code, value) at `time`; returns what the decoder returned for each.
    static func feed(_ decoder: inout TouchDecoder, at time: Double = 1,
                     _ events: [(UInt16, UInt16, Int32)]) -> [TouchFrame?] {
        events.map { decoder.feed(InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2)) }
    }

    static let report: (UInt16, UInt16, Int32) = (EventType.syn, SynCode.report, 0)
    static let dropped: (UInt16, UInt16, Int32) = (EventType.syn, SynCode.dropped, 0)
    static func abs(_ code: UInt16, _ value: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, code, value) }
    static func key(_ code: UInt16, _ down: Bool) -> (UInt16, UInt16, Int32) { (EventType.key, code, down ? 1 : 0) }

    /// Puts finger `id` down in slot 0 at (x, y) and commits it.
    static func touchDown(_ decoder: inout TouchDecoder, id: Int32 = 5, x: Int32, y: Int32) -> TouchFrame? {
        feed(&decoder, [abs(AbsCode.mtSlot, 0), abs(AbsCode.mtTrackingID, id), abs(AbsCode.mtPositionX, x),
                        abs(AbsCode.mtPositionY, y), key(KeyCode.btnTouch, true), report]).last ?? nil
    }

    @Test func nothingIsReportedBeforeSynReport() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        let results = Self.feed(&decoder, at: 2.5, [
            Self.abs(AbsCode.mtTrackingID, 9), Self.abs(AbsCode.mtPositionX, 100), Self.abs(AbsCode.mtPositionY, 200),
            Self.abs(AbsCode.mtSlot, 1), Self.abs(AbsCode.mtTrackingID, 10), Self.abs(AbsCode.mtPositionX, 300),
            Self.abs(AbsCode.mtPositionY, 400), Self.key(KeyCode.btnTouch, true),
        ])
        #expect(results.allSatisfy { $0 == nil })
        #expect(decoder.contacts.isEmpty)
        let frame = decoder.feed(InputEvent(time: 2.5, type: EventType.syn, code: SynCode.report, value: 0))
        #expect(frame == TouchFrame(time: 2.5, contacts: [TouchContact(id: 9, position: Point(x: 100, y: 200)),
                                                          TouchContact(id: 10, position: Point(x: 300, y: 400))]))
    }

    @Test func reportsOnlyFramesThatChangeTheContacts() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        #expect(Self.touchDown(&decoder, x: 10, y: 20) != nil)
        // Legacy axes, buttons and MSC events of a multitouch device change nothing.
        let results = Self.feed(&decoder, [
            Self.abs(AbsCode.x, 500), Self.abs(AbsCode.y, 500), Self.report,
            (EventType.msc, MscCode.timestamp, 1000), Self.report,
            Self.abs(AbsCode.mtPositionX, 10), Self.report,
        ])
        #expect(results.allSatisfy { $0 == nil })
        let moved = Self.feed(&decoder, [Self.abs(AbsCode.mtPositionX, 11), Self.report]).last ?? nil
        #expect(moved?.contacts == [TouchContact(id: 5, position: Point(x: 11, y: 20))])
    }

    @Test func liftsWithTrackingIdMinusOne() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        _ = Self.touchDown(&decoder, x: 10, y: 20)
        let lifted = Self.feed(&decoder, at: 3, [Self.abs(AbsCode.mtTrackingID, -1), Self.key(KeyCode.btnTouch, false),
                                                 Self.report]).last ?? nil
        #expect(lifted == TouchFrame(time: 3, contacts: []))
    }

    @Test func ignoresSlotsBeyondTheDevicesCount() throws {
        var decoder = try Self.decoder(Self.multitouchPanel(slots: 2))
        let results = Self.feed(&decoder, [Self.abs(AbsCode.mtSlot, 7), Self.abs(AbsCode.mtTrackingID, 3),
                                           Self.abs(AbsCode.mtSlot, -1), Self.abs(AbsCode.mtTrackingID, 4), Self.report])
        #expect(results.allSatisfy { $0 == nil })
        #expect(decoder.contacts.isEmpty)
    }

    @Test func palmsAreNotContacts() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        _ = Self.touchDown(&decoder, x: 10, y: 20)
        let frame = Self.feed(&decoder, [Self.abs(AbsCode.mtToolType, MTToolType.palm), Self.report]).last ?? nil
        #expect(frame?.contacts == [])
    }

    @Test func synDroppedDiscardsEverythingUntilTheNextReport() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        _ = Self.touchDown(&decoder, x: 100, y: 100)
        let results = Self.feed(&decoder, [
            Self.abs(AbsCode.mtPositionX, 200),       // staged, then lost with the drop
            Self.dropped,
            Self.abs(AbsCode.mtPositionX, 300), Self.abs(AbsCode.mtTrackingID, -1),
            Self.report,                              // ends the damaged frame
        ])
        #expect(results.allSatisfy { $0 == nil })
        #expect(decoder.needsResynchronisation)
        #expect(decoder.contacts == [TouchContact(id: 5, position: Point(x: 100, y: 100))])

        // The device state read back: the finger moved on and a second one landed in slot 2.
        let state = DeviceState(keysDown: [KeyCode.btnTouch], absoluteValues: [AbsCode.mtSlot: 2], slots: [
            TouchSlot(trackingID: 5, x: 400, y: 100), TouchSlot(), TouchSlot(trackingID: 6, x: 700, y: 800),
        ])
        let resynchronised = decoder.resynchronise(to: state, time: 4)
        #expect(resynchronised == TouchFrame(time: 4, contacts: [TouchContact(id: 5, position: Point(x: 400, y: 100)),
                                                                 TouchContact(id: 6, position: Point(x: 700, y: 800))]))
        #expect(!decoder.needsResynchronisation)
        // Decoding continues from the read-back state, in the read-back current slot (2).
        let lifted = Self.feed(&decoder, [Self.abs(AbsCode.mtTrackingID, -1), Self.report]).last ?? nil
        #expect(lifted?.contacts == [TouchContact(id: 5, position: Point(x: 400, y: 100))])
        #expect(decoder.resynchronise(to: DeviceState(slots: [TouchSlot(trackingID: 5, x: 400, y: 100)]), time: 5) == nil)
    }

    @Test func withoutResynchronisationDecodingContinuesFromTheLastFrame() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        _ = Self.touchDown(&decoder, x: 100, y: 100)
        _ = Self.feed(&decoder, [Self.dropped, Self.abs(AbsCode.mtPositionY, 900), Self.report])
        let frame = Self.feed(&decoder, [Self.abs(AbsCode.mtPositionX, 150), Self.report]).last ?? nil
        #expect(frame?.contacts == [TouchContact(id: 5, position: Point(x: 150, y: 100))])
    }

    @Test func resetLiftsEveryContact() throws {
        var decoder = try Self.decoder(Self.multitouchPanel())
        #expect(decoder.reset(time: 1) == nil)
        _ = Self.touchDown(&decoder, x: 100, y: 100)
        #expect(decoder.reset(time: 7) == TouchFrame(time: 7, contacts: []))
        #expect(decoder.contacts.isEmpty)
        // A later frame that only moves the old slot brings nothing back.
        #expect((Self.feed(&decoder, [Self.abs(AbsCode.mtPositionX, 120), Self.report]).last ?? nil) == nil)
    }

    @Test func singleTouchIsContactZeroWhileBtnTouchIsDown() throws {
        var decoder = try Self.decoder(Self.resistivePanel)
        #expect(decoder.touchProtocol == .singleTouch)
        // Position without touch: hovering, no contact.
        #expect((Self.feed(&decoder, [Self.abs(AbsCode.x, 100), Self.abs(AbsCode.y, 200), Self.report]).last ?? nil) == nil)
        let down = Self.feed(&decoder, [Self.key(KeyCode.btnTouch, true), Self.report]).last ?? nil
        #expect(down?.contacts == [TouchContact(id: 0, position: Point(x: 100, y: 200))])
        let moved = Self.feed(&decoder, [Self.abs(AbsCode.y, 250), Self.report]).last ?? nil
        #expect(moved?.contacts == [TouchContact(id: 0, position: Point(x: 100, y: 250))])
        let up = Self.feed(&decoder, [Self.key(KeyCode.btnTouch, false), Self.report]).last ?? nil
        #expect(up?.contacts == [])
        let again = decoder.resynchronise(to: DeviceState(keysDown: [KeyCode.btnTouch],
                                                          absoluteValues: [AbsCode.x: 600, AbsCode.y: 700]), time: 2)
        #expect(again?.contacts == [TouchContact(id: 0, position: Point(x: 600, y: 700))])
        #expect(!decoder.usesAlternatePositionAxes)
    }

    @Test func qemuTabletIsAPointerPressedWhileTheLeftButtonIsDown() throws {
        #expect(Self.qemuTablet.classification == .touchscreen(.absolutePointer))
        var decoder = try Self.decoder(Self.qemuTablet)
        #expect((Self.feed(&decoder, [Self.abs(AbsCode.x, 16384), Self.abs(AbsCode.y, 8192), Self.report]).last ?? nil) == nil)
        let pressed = Self.feed(&decoder, [Self.key(KeyCode.btnLeft, true), Self.report]).last ?? nil
        let contact = try #require(pressed?.contacts.first)
        #expect(contact.id == 0)
        #expect(Swift.abs(contact.position.x - 500) < 0.1 && Swift.abs(contact.position.y - 250) < 0.1)
        // The right button is not a touch.
        #expect((Self.feed(&decoder, [Self.key(KeyCode.btnRight, true), Self.report]).last ?? nil) == nil)
        let released = Self.feed(&decoder, [Self.key(KeyCode.btnLeft, false), Self.report]).last ?? nil
        #expect(released?.contacts == [])
    }

    @Test func protocolAGivesANewIdToAFingerThatLandsFarAway() throws {
        var decoder = try Self.decoder(Self.protocolAPanel)
        #expect(decoder.touchProtocol == .multitouchProtocolA)
        let mt: (UInt16, UInt16, Int32) = (EventType.syn, SynCode.mtReport, 0)
        let first = Self.feed(&decoder, [Self.abs(AbsCode.mtPositionX, 100), Self.abs(AbsCode.mtPositionY, 100), mt,
                                         Self.report]).last ?? nil
        let id = try #require(first?.contacts.first?.id)
        // Same finger moved a little: same id. An empty packet is no contact.
        let moved = Self.feed(&decoder, [Self.abs(AbsCode.mtPositionX, 110), Self.abs(AbsCode.mtPositionY, 100), mt,
                                         mt, Self.report]).last ?? nil
        #expect(moved?.contacts == [TouchContact(id: id, position: Point(x: 110, y: 100))])
        // In one frame that finger lifts and another lands across the screen: a new id.
        let other = Self.feed(&decoder, [Self.abs(AbsCode.mtPositionX, 900), Self.abs(AbsCode.mtPositionY, 900), mt,
                                         Self.report]).last ?? nil
        let newID = try #require(other?.contacts.first?.id)
        #expect(newID != id)
        // A report with no packets: every finger is up.
        #expect((Self.feed(&decoder, [Self.report]).last ?? nil)?.contacts == [])
    }

    /// A flood of SYN_MT_REPORTs in one frame (a broken or hostile device, a crafted recording)
    /// keeps the first `maximumContacts`: bounded memory, and linear time (the id matching is
    /// quadratic in the contacts kept, not in the flood). Unbounded, 20,000 contacts cost minutes.
    @Test func aProtocolAFloodKeepsAtMostSixteenContacts() throws {
        var decoder = try Self.decoder(Self.protocolAPanel)
        let mt: (UInt16, UInt16, Int32) = (EventType.syn, SynCode.mtReport, 0)
        for frame in 0..<3 {
            var events: [(UInt16, UInt16, Int32)] = []
            for contact in 0..<20_000 {
                events += [Self.abs(AbsCode.mtPositionX, Int32(contact % 1000)),
                           Self.abs(AbsCode.mtPositionY, Int32((contact / 1000 + frame) % 1000)), mt]
            }
            let published = Self.feed(&decoder, at: Double(frame), events + [Self.report]).last ?? nil
            #expect(published?.contacts.count == TouchDecoder.maximumContacts)
        }
    }

    @Test func refusesADeviceWithoutPositionAxes() throws {
        let keyboard = DeviceDescription(name: "keyboard", events: [
            EventType.syn: [EventType.syn, EventType.key], EventType.key: [KeyCode.esc, KeyCode.back],
        ])
        #expect(keyboard.classification == .unusable(reason: "no absolute axes"))
        let transform = try TouchTransform(screen: Self.screen, xRange: 0...1, yRange: 0...1)
        #expect(throws: TouchDecoderError.self) { try TouchDecoder(device: keyboard, transform: transform) }
    }

    @Test func classifiesOldTouchpadsWithoutProperties() {
        var pad = Self.multitouchPanel()
        pad.properties = []
        pad.events[EventType.key] = [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnLeft]
        #expect(pad.classification == .touchpad(.multitouch))
        pad.properties = [InputProperty.direct]
        #expect(pad.classification == .touchscreen(.multitouch))
        // A touchscreen from an old kernel, without INPUT_PROP_DIRECT, is still a touchscreen.
        var old = Self.multitouchPanel()
        old.properties = []
        #expect(old.classification == .touchscreen(.multitouch))
    }
}
