import Geometry
import Testing
@testable import Touch

/// A made-up gesture written as an evemu recording reads back, through the parser and the decoder
/// `simulate --replay` uses, as the same frames: whole-pixel positions at the same times.
@Suite struct EvemuWriterTests {
    @Test func aWrittenPinchReadsBackAsTheSameFrames() throws {
        let screen = Size(width: 800, height: 480)
        let frames = [TouchFrame(time: 0, contacts: [TouchContact(id: 1, position: Point(x: 300, y: 240))])]
            + SyntheticGesture.pinch(center: Point(x: 400, y: 240), from: 200, to: 120, time: 0.016, duration: 0.08,
                                     end: .stayDown, interval: 0.008)
            + [TouchFrame(time: 0.1, contacts: [TouchContact(id: 2, position: Point(x: 460, y: 240))]),
               TouchFrame(time: 0.2, contacts: [])]
        let text = EvemuWriter.touchscreen(name: "Synthetic", screen: screen, frames: frames, comment: "two\nlines")
        #expect(text.hasPrefix("# EVEMU 1.3\n# two\n# lines\nN: Synthetic\n"))
        let recording = try EvemuRecording.parse(text: text)
        #expect(recording.device.classification.isTouchscreen)
        var decoder = try TouchDecoder(device: recording.device, transform: TouchTransform(device: recording.device,
                                                                                          screen: screen))
        let decoded = recording.events.compactMap { decoder.feed($0) }
        #expect(decoded.count == frames.count)
        // evemu stamps are microseconds.
        #expect(zip(decoded, frames).allSatisfy { abs($0.time - $1.time) < 1e-6 })
        for (got, want) in zip(decoded, frames) {
            let gotPositions = got.contacts.map(\.position), wantPositions = want.contacts.map(\.position)
            #expect(gotPositions.count == wantPositions.count)
            for (a, b) in zip(gotPositions, wantPositions) {
                #expect(abs(a.x - b.x.rounded()) < 1e-9 && abs(a.y - b.y.rounded()) < 1e-9, "at \(want.time)")
            }
        }
        // Fingers keep their identity from frame to frame, and the one left at the end is the second.
        #expect(Set(decoded[1].contacts.map(\.id)).count == 2)
        #expect(decoded[decoded.count - 2].contacts.map(\.id) == [decoded[1].contacts[1].id])
    }
}
