import Geometry
import Testing
@testable import Touch

@Suite struct SyntheticGestureTests {
    let p = Point(x: 100, y: 200)

    @Test func aTapIsDownASampleAndUp() {
        let frames = SyntheticGesture.tap(at: p, time: 1)
        #expect(frames.map(\.time) == [1, 1.06, 1.07])
        #expect(frames.map(\.contacts) == [[TouchContact(id: 1, position: p)], [TouchContact(id: 1, position: p)], []])
        let drifting = SyntheticGesture.tap(at: p, time: 0, duration: 0.2, lastSample: 0.1, drift: Point(x: 5, y: -1))
        #expect(drifting[1] == TouchFrame(time: 0.1, contacts: [TouchContact(id: 1, position: Point(x: 105, y: 199))]))
        #expect(SyntheticGesture.tap(at: p, time: 0, duration: 0.05, lastSample: nil).map(\.time) == [0, 0.05])
    }

    @Test func aDoubleTapIsTwoTapsTheSecondLater() {
        let frames = SyntheticGesture.doubleTap(at: p, time: 2)
        #expect(frames == SyntheticGesture.tap(at: p, time: 2) + SyntheticGesture.tap(at: p, time: 2.15))
    }

    @Test func aDragSamplesEveryIntervalAndEndsAsAsked() throws {
        let a = Point(x: 0, y: 0), b = Point(x: 0, y: 300)
        let flick = SyntheticGesture.drag(from: a, to: b, time: 1, duration: 0.1, end: .lift(after: 0.004), interval: 0.01)
        #expect(flick.count == 12)  // 11 samples 0.01 apart, then the lift
        #expect(flick.first?.contacts == [TouchContact(id: 1, position: a)])
        #expect(flick[10].contacts == [TouchContact(id: 1, position: b)])
        #expect(abs(flick[5].contacts[0].position.y - 150) < 1e-9)  // steady: half-way at half the time
        let lift = try #require(flick.last)
        #expect(lift.contacts.isEmpty && abs(lift.time - 1.104) < 1e-12)

        let held = SyntheticGesture.drag(from: a, to: b, time: 1, duration: 0.1, end: .hold(samples: 3, thenLiftAfter: 0.004),
                                         interval: 0.01)
        #expect(held.count == 11 + 3 + 1)
        #expect(held[11...13].allSatisfy { $0.contacts == [TouchContact(id: 1, position: b)] })
        #expect(held.last?.contacts.isEmpty == true)
        #expect(SyntheticGesture.drag(from: a, to: b, time: 1, duration: 0.1, end: .stayDown, interval: 0.01).count == 11)
    }

    @Test func thePaceShapesTheWayAlongTheLine() {
        func y(_ pace: SyntheticGesture.Pace, sample: Int) -> Double {
            SyntheticGesture.drag(from: .zero, to: Point(x: 0, y: 100), time: 0, duration: 1, pace: pace,
                                  end: .stayDown, interval: 0.1)[sample].contacts[0].position.y
        }
        // Ease in and out comes to rest at the end; a flick is still moving (6 px in the last tenth,
        // the steady drag 10).
        #expect(abs(y(.easeInOut, sample: 10) - y(.easeInOut, sample: 9)) < abs(y(.steady, sample: 10) - y(.steady, sample: 9)) / 2)
        #expect(abs((y(.flick, sample: 10) - y(.flick, sample: 9)) - 6) < 1e-9)
        #expect(y(.flick, sample: 5) == 50 && y(.easeInOut, sample: 5) == 50)
    }

    @Test func aPinchSpreadsTwoFingersAboutItsCentre() throws {
        let frames = SyntheticGesture.pinch(center: Point(x: 500, y: 400), from: 200, to: 400, time: 0, duration: 0.05,
                                            end: .lift(after: 0.01), interval: 0.01)
        #expect(frames.first?.contacts == [TouchContact(id: 1, position: Point(x: 400, y: 400)),
                                           TouchContact(id: 2, position: Point(x: 600, y: 400))])
        let last = frames[frames.count - 2]
        #expect(last.contacts == [TouchContact(id: 1, position: Point(x: 300, y: 400)),
                                  TouchContact(id: 2, position: Point(x: 700, y: 400))])
        #expect(frames.last?.contacts.isEmpty == true)
    }
}
