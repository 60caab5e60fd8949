import Config
import Geometry
import Logging
import Rendering
import Testing
import TestSupport
import Touch
@testable import VitrineApp

/// SPEC §13 through `KioskSession` as `run` drives it, in virtual time: a display whose vblanks
/// come every `period`, a frame that takes `compose` to draw and whose flip completes at the first
/// vblank after it was queued, touches from a 120 Hz panel, and the frame timer `.wait` arms.
@Suite struct KioskSessionLatencyTests {
    static let period = 1.0 / 60
    static let compose = 0.003

    private func session() throws -> KioskSession {
        var settings = Settings()
        settings.photos.directory = TestPaths.samplePhotos
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let photos = try PhotoFolder.scan(settings.photos, logger: logger)
        let viewer = Viewer(settings: settings, screenSize: Size(width: 640, height: 400), items: photos,
                            logger: logger, onDecoded: {})
        return KioskSession(viewer: viewer, settings: settings, refreshPeriod: Self.period, now: 0, zone: .utc)
    }

    /// What a run gave: each latency, and the touch frames that changed the picture.
    struct Run {
        var latencies: [Double] = []
        var frames = 0
    }

    /// `run`'s loop over `touches` in virtual time: every event asks `nextStep`, as
    /// `KioskRunner.drawIfNeeded` does after each touch, timer and flip.
    private func run(_ touches: [TouchFrame], until end: Double) throws -> Run {
        let session = try session()
        var result = Run()
        var pending = touches[...]
        var timer: Double?
        var flip: Double?
        var now = 0.0
        func vblank(after t: Double) -> Double { (t / Self.period).rounded(.down) * Self.period + Self.period }
        func ask() {
            switch session.nextStep(now: now, flipPending: flip != nil, nextVblank: vblank(after: now)) {
            case .none: break
            case .wait(let time): timer = time
            case let .draw(frame, moving):
                let queued = now + Self.compose
                _ = session.presented(frame, at: now, composeTime: Self.compose, moving: moving)
                result.frames += 1
                flip = vblank(after: queued)
                now = queued
            }
        }
        ask()
        while now < end {
            // The next event: a touch, the timer or the flip, whichever comes first.
            let next = [pending.first?.time, timer, flip].compactMap { $0 }.min() ?? end
            now = max(now, next)
            if let time = flip, time <= now {
                flip = nil
                result.latencies += session.flipCompleted(at: time)
            } else if let time = timer, time <= now {
                timer = nil
            } else if let touch = pending.first, touch.time <= now {
                pending.removeFirst()
                session.dispatch(.input(.touch(touch)), now: now, wall: 0)
            } else if next >= end {
                break
            }
            ask()
        }
        return result
    }

    /// A steady drag down the grid at 120 Hz, beginning 3 ms after a vblank: the panel's samples
    /// fall anywhere between two vblanks.
    static let drag = SyntheticGesture.drag(from: Point(x: 320, y: 100), to: Point(x: 320, y: 340), time: 1.003,
                                            duration: 0.5, end: .lift(after: 0.02))

    @Test func everyTouchThatMovesTheGridIsShownAtTheNextVblankItCanMake() throws {
        let run = try run(Self.drag, until: 3)
        // About 60 moves, less the few inside the tap slop: each changed the grid's offset.
        #expect(run.latencies.count >= 50 && run.latencies.count <= Self.drag.count, "\(run.latencies.count)")
        // Sampled as late as the budget (3 ms + 1.5 ms) allows, a touch waits at most for the
        // vblank after next when it came just inside the budget: never two whole periods.
        let budget = Self.compose + 0.0015
        for latency in run.latencies {
            #expect(latency > 0 && latency <= Self.period + budget + 1e-9, "\(latency)")
        }
        // Most touches make the very next vblank.
        let nextVblank = run.latencies.filter { $0 <= Self.period + 1e-9 }.count
        #expect(Double(nextVblank) >= 0.6 * Double(run.latencies.count), "\(run.latencies)")
    }

    @Test func aTouchThatChangesNothingGivesNoLatency() throws {
        // A finger down and resting in the grid, then lifted without moving: no picture change
        // (a tap on a cell would open it: this one is held too long to be a tap).
        let rest = [TouchFrame(time: 1.003, contacts: [TouchContact(id: 1, position: Point(x: 5, y: 395))]),
                    TouchFrame(time: 1.011, contacts: [TouchContact(id: 1, position: Point(x: 5, y: 395))]),
                    TouchFrame(time: 2.5, contacts: [])]
        let run = try run(rest, until: 3)
        #expect(run.latencies.isEmpty, "\(run.latencies)")
    }
}
