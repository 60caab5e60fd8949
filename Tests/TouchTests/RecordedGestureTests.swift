import Geometry
import TestSupport
import Testing
@testable import Touch

/// The decoder on real recordings: what a person did on the panel comes out as frames.
@Suite struct RecordedGestureTests {
    static let atmelScreen = Size(width: 800, height: 480)
    static let fullHD = Size(width: 1920, height: 1080)

    @Test func atmelFastTapsAreNineSeparateTapsNearTheCentre() throws {
        let recording = try Recordings.load("atmel_maxtouch.1-finger-fast-taps.evemu")
        let frames = try Recordings.frames(of: recording, screen: Self.atmelScreen)
        let taps = strokes(in: frames)
        #expect(taps.count == 9)
        #expect(Set(taps.map(\.id)).count == 9)
        #expect(taps.map(\.id) == Array(3...11))
        for tap in taps {
            // No motion within a tap, and every tap lands within 100 px of the centre.
            #expect(tap.positions.count == 1)
            #expect(tap.first.distance(to: Point(x: 400, y: 240)) < 100)
        }
        // Down, up, down, up...: never two fingers.
        #expect(frames.count == 18)
        #expect(frames.enumerated().allSatisfy { $0.element.contacts.count == ($0.offset.isMultiple(of: 2) ? 1 : 0) })
        #expect(frames.last?.contacts.isEmpty == true)
        // Device units 0...799 fill 800 px: the first tap at (340, 242).
        #expect(abs(taps[0].first.x - 340.0 * 800 / 799) < 1e-9)
        #expect(abs(taps[0].first.y - 242.0 * 480 / 479) < 1e-9)
        // The fifth tap sends only ABS_MT_POSITION_Y: x is still the fourth tap's 364.
        #expect(abs(taps[4].first.x - 364.0 * 800 / 799) < 1e-9)
        #expect(abs(taps[4].first.y - 251.0 * 480 / 479) < 1e-9)
        // Frames carry the SYN_REPORT's time.
        #expect(frames[1].time == 0.095573)
    }

    @Test func atmelDragGoesUpThenBackDown() throws {
        let recording = try Recordings.load("atmel_maxtouch.1-finger-drag-up-down.evemu")
        let frames = try Recordings.frames(of: recording, screen: Self.atmelScreen)
        let drags = strokes(in: frames)
        let drag = try #require(drags.first)
        #expect(drags.count == 1)
        let ys = drag.positions.map(\.y)
        let top = try #require(ys.min())
        #expect(drag.first.y - top > 200)
        #expect(drag.last.y - top > 200)
        // The x barely moves compared with y.
        let xs = drag.positions.map(\.x)
        #expect(try #require(xs.max()) - #require(xs.min()) < 100)
        #expect(frames.last?.contacts.isEmpty == true)
        // Frames are in time order.
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test func atmelTwoFingersAreDownTogetherWithDistinctIds() throws {
        let recording = try Recordings.load("atmel_maxtouch.2-fingers-touch-release.evemu")
        let frames = try Recordings.frames(of: recording, screen: Self.atmelScreen)
        let both = try #require(frames.first { $0.contacts.count == 2 })
        #expect(both.contacts[0].id != both.contacts[1].id)
        #expect(both.contacts[0].position.distance(to: both.contacts[1].position) > 20)
        #expect(frames.allSatisfy { $0.contacts.count <= 2 })
        #expect(strokes(in: frames).count == 2)
        #expect(frames.last?.contacts.isEmpty == true)
    }

    @Test func atmelFourFingersAllMoveDown() throws {
        let recording = try Recordings.load("atmel_maxtouch.4-finger-drag-down.evemu")
        let frames = try Recordings.frames(of: recording, screen: Self.atmelScreen)
        #expect(frames.contains { $0.contacts.count == 4 })
        #expect(frames.allSatisfy { $0.contacts.count <= 4 })
        let fingers = strokes(in: frames)
        #expect(fingers.count == 4)
        #expect(Set(fingers.map(\.id)).count == 4)
        for finger in fingers {
            #expect(finger.last.y - finger.first.y > 50, "finger \(finger.id)")
            #expect(abs(finger.last.x - finger.first.x) < finger.last.y - finger.first.y)
        }
        #expect(frames.last?.contacts.isEmpty == true)
    }

    @Test func wacomTwoFingerTapIsOneFrameWithBoth() throws {
        let recording = try Recordings.load(device: "wacom_isdv4_e6_finger", events: "2fg-tap")
        let frames = try Recordings.frames(of: recording, screen: Self.fullHD)
        #expect(frames.count == 2)
        let down = try #require(frames.first)
        #expect(down.contacts.map(\.id) == [7, 8])
        #expect(abs(down.contacts[0].position.x - 1488.0 * 1920 / 2776) < 1e-9)
        #expect(abs(down.contacts[1].position.y - 732.0 * 1080 / 1569) < 1e-9)
        #expect(frames.last?.contacts.isEmpty == true)
    }

    @Test func wacomTopSwipeGoesLeftToRight() throws {
        let recording = try Recordings.load(device: "wacom_isdv4_e6_finger", events: "single-top-swipe")
        let frames = try Recordings.frames(of: recording, screen: Self.fullHD)
        let swipes = strokes(in: frames)
        let swipe = try #require(swipes.first)
        #expect(swipes.count == 1)
        #expect(swipe.last.x - swipe.first.x > 1500)
        #expect(swipe.positions.allSatisfy { $0.y < 300 })
    }

    @Test func wacomTwoFingerScrollMovesBothDownSideBySide() throws {
        let recording = try Recordings.load(device: "wacom_isdv4_e6_finger", events: "double-center-scroll")
        let frames = try Recordings.frames(of: recording, screen: Self.fullHD)
        let fingers = strokes(in: frames).filter { $0.positions.count > 10 }
        #expect(fingers.count == 2)
        for finger in fingers {
            #expect(finger.last.y - finger.first.y > 100, "finger \(finger.id)")
        }
    }

    @Test func dth2242SessionHasSixtySixContactsUpToTenAtOnce() throws {
        let recording = try Recordings.load("wacom_dth2242_finger.multi-gesture.evemu")
        let frames = try Recordings.frames(of: recording, screen: Self.fullHD)
        #expect(frames.map(\.contacts.count).max() == 10)
        #expect(strokes(in: frames).count == 66)
        #expect(frames.allSatisfy { Set($0.contacts.map(\.id)).count == $0.contacts.count })
        #expect(frames.allSatisfy { $0.contacts.allSatisfy { Rect.screen(Self.fullHD).containsClosed($0.position) } })
        #expect(frames.last?.contacts.isEmpty == true)
    }

    @Test func eGalaxPositionOnZAndRXGivesATapThenADrag() throws {
        let recording = try EvemuRecording.parse(
            description: Recordings.text("egalax_usb_touchcontroller_resistive.desc"),
            events: Recordings.text("egalax_usb_touchcontroller_resistive.events"))
        let transform = try TouchTransform(device: recording.device, screen: Self.fullHD)
        var decoder = try TouchDecoder(device: recording.device, transform: transform)
        let frames = recording.events.compactMap { decoder.feed($0) }
        #expect(decoder.usesAlternatePositionAxes)
        #expect(decoder.transform.xRange == 30...4040)
        #expect(decoder.transform.yRange == 60...4035)

        let touches = strokes(in: frames)
        #expect(touches.count == 2)
        let tap = try #require(touches.first), drag = try #require(touches.last)
        // The 0.7 s tap stays within a few pixels; the first frame already uses ABS_Z/ABS_RX.
        #expect(tap.positions.allSatisfy { $0.distance(to: tap.first) < 20 })
        #expect(abs(tap.first.x - (1909.0 - 30) / (4040 - 30) * 1920) < 1e-9)
        #expect(abs(tap.first.y - (2123.0 - 60) / (4035 - 60) * 1080) < 1e-9)
        // The drag crosses most of the panel diagonally.
        #expect(abs(drag.last.x - drag.first.x) > 0.6 * 1920)
        #expect(abs(drag.last.y - drag.first.y) > 0.6 * 1080)
        #expect(frames.last?.contacts.isEmpty == true)
    }

    @Test func nTrigProtocolAKeepsIdsByNearestNeighbour() throws {
        let recording = try Recordings.load(device: "ntrig_multitouch_protocolA", events: "2-fingers-touch-release")
        let frames = try Recordings.frames(of: recording, screen: Self.fullHD)
        #expect(frames.map(\.contacts.count).max() == 2)
        let fingers = strokes(in: frames)
        #expect(fingers.count == 2)
        // The first finger lands bottom left and stays; the second lands top right, stays after
        // the first lifts, and keeps its id although it is listed first in the device's frames.
        let first = try #require(fingers.first), second = try #require(fingers.last)
        #expect(first.first.x < 960 && first.first.y > 540)
        #expect(second.first.x > 960 && second.first.y < 540)
        #expect(first.positions.allSatisfy { $0.distance(to: first.first) < 50 })
        #expect(second.positions.allSatisfy { $0.distance(to: second.first) < 100 })
        #expect(frames.last?.contacts.isEmpty == true)
    }

    @Test func touchpadDecodesWhenChosenExplicitly() throws {
        let recording = try Recordings.load("touchpad_synaptics_tm3276.pinch-out.evemu")
        #expect(recording.device.classification == .touchpad(.multitouch))
        #expect(!recording.device.classification.isTouchscreen)
        let frames = try Recordings.frames(of: recording, screen: Self.fullHD)
        let pairs = frames.filter { $0.contacts.count == 2 }
        let start = try #require(pairs.first), end = try #require(pairs.last)
        let spreadBefore = start.contacts[0].position.distance(to: start.contacts[1].position)
        let spreadAfter = end.contacts[0].position.distance(to: end.contacts[1].position)
        #expect(spreadAfter > 2 * spreadBefore)
    }
}

private extension Rect {
    static func screen(_ size: Size) -> Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }
    func containsClosed(_ point: Point) -> Bool {
        point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
    }
}
