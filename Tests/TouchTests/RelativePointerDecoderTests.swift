import Geometry
import Testing
@testable import Touch

@Suite struct RelativePointerDecoderTests {
    func events(_ list: [(UInt16, UInt16, Int32)], at time: Double) -> [InputEvent] {
        list.map { InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
            + [InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0)]
    }

    func feed(_ decoder: inout RelativePointerDecoder, _ events: [InputEvent]) -> [TouchFrame] {
        events.compactMap { decoder.feed($0) }
    }

    @Test func aClickIsATouchWhereThePointerIs() {
        var mouse = RelativePointerDecoder(screen: Size(width: 800, height: 600))
        // Moving with the button up is no touch.
        #expect(feed(&mouse, events([(EventType.rel, RelCode.x, 100), (EventType.rel, RelCode.y, -50)], at: 1)).isEmpty)
        let down = feed(&mouse, events([(EventType.key, KeyCode.btnLeft, 1)], at: 2))
        #expect(down == [TouchFrame(time: 2, contacts: [TouchContact(id: 0, position: Point(x: 500, y: 250))])])
        let drag = feed(&mouse, events([(EventType.rel, RelCode.y, 30)], at: 3))
        #expect(drag == [TouchFrame(time: 3, contacts: [TouchContact(id: 0, position: Point(x: 500, y: 280))])])
        let up = feed(&mouse, events([(EventType.key, KeyCode.btnLeft, 0)], at: 4))
        #expect(up == [TouchFrame(time: 4, contacts: [])])
    }

    @Test func thePointerStaysOnTheScreen() {
        var mouse = RelativePointerDecoder(screen: Size(width: 800, height: 600))
        _ = feed(&mouse, events([(EventType.rel, RelCode.x, -5000), (EventType.rel, RelCode.y, 9000)], at: 1))
        #expect(mouse.position == Point(x: 0, y: 599))
    }

    @Test func nothingActsBeforeTheReport() {
        var mouse = RelativePointerDecoder(screen: Size(width: 800, height: 600))
        #expect(mouse.feed(InputEvent(time: 1, type: EventType.key, code: KeyCode.btnLeft, value: 1)) == nil)
        #expect(mouse.feed(InputEvent(time: 1, type: EventType.rel, code: RelCode.x, value: 10)) == nil)
        #expect(mouse.feed(InputEvent(time: 1, type: EventType.syn, code: SynCode.report, value: 0))?.contacts.count == 1)
    }

    @Test func aMouseIsRecognisedByItsAxesAndButton() {
        let mouse = DeviceDescription(name: "USB mouse", events: [
            EventType.syn: [EventType.syn, EventType.key, EventType.rel],
            EventType.key: [KeyCode.btnLeft, KeyCode.btnRight], EventType.rel: [RelCode.x, RelCode.y],
        ])
        #expect(RelativePointerDecoder.handles(mouse))
        #expect(!RelativePointerDecoder.handles(DeviceDescription(name: "keyboard", events: [EventType.key: [KeyCode.esc]])))
    }
}
