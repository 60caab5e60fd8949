import Config
import Geometry
import Logging
import RemoteControl
import Rendering
import Scene
import Testing
import TestSupport
import Touch
@testable import VitrineApp

/// `KioskSession.dispatch`, the one place a kiosk decision is made, driven with plain values and
/// virtual time: a transport's actions (SPEC §9), the idle policy's, a touch's; and what it leaves
/// to the run loop.
@Suite struct KioskSessionControlTests {
    private func session(blankAfter: Double = 0) throws -> KioskSession {
        var settings = Settings()
        settings.photos.directory = TestPaths.samplePhotos
        settings.kiosk.blankAfter = blankAfter
        let logger = Logger(label: "test")
        let photos = try PhotoFolder.scan(settings.photos, logger: logger)
        let viewer = Viewer(settings: settings, screenSize: Size(width: 640, height: 400), items: photos,
                            logger: logger, onDecoded: {})
        return KioskSession(viewer: viewer, settings: settings, refreshPeriod: 1.0 / 60, now: 0, zone: .utc)
    }

    /// Runs the scene on to `time` so transitions end.
    private func settle(_ session: KioskSession, at time: Double) {
        _ = session.viewer.frame(at: time)
    }

    @discardableResult
    private func remote(_ session: KioskSession, _ action: RemoteAction, at time: Double) -> [KioskEffect] {
        session.dispatch(.remote(action), now: time, wall: 0)
    }

    private func touch(_ session: KioskSession, fingers: Int, at time: Double) -> [KioskEffect] {
        let contacts = (0..<fingers).map { TouchContact(id: $0 + 1, position: Point(x: 100, y: 100)) }
        return session.dispatch(.input(.touch(TouchFrame(time: time, contacts: contacts))), now: time, wall: 0)
    }

    @Test func navigationOpensPagesAndCloses() throws {
        let session = try session()
        let scene = session.viewer.scene
        #expect(remote(session, .open(2), at: 1).isEmpty)
        settle(session, at: 3)
        #expect(scene.mode == .pager && scene.currentIndex == 2)
        remote(session, .next, at: 3)
        settle(session, at: 5)
        #expect(scene.currentIndex == 3)
        remote(session, .previous, at: 5)
        remote(session, .previous, at: 5.01)
        settle(session, at: 7)
        #expect(scene.currentIndex == 1)
        remote(session, .close, at: 7)
        settle(session, at: 9)
        #expect(scene.mode == .grid)
    }

    @Test func screenOffBlanksAndScreenOnOrNavigationWakes() throws {
        let session = try session()
        #expect(remote(session, .screenOff, at: 1) == [.screenOff(log: "remote: ", status: .displayOff("remote"))])
        #expect(!session.isScreenOn)
        #expect(session.nextStep(now: 1.1, flipPending: false, nextVblank: 1.1).isNone)
        #expect(remote(session, .screenOn, at: 2) == [.screenOn(log: "remote: display on", status: .showing)])
        #expect(session.isScreenOn)
        #expect(remote(session, .screenOn, at: 3).isEmpty)
        remote(session, .screenOff, at: 4)
        // Paging wakes the screen too: someone asked to see a photo.
        #expect(remote(session, .open(0), at: 5) == [.screenOn(log: "remote: display on", status: .showing)])
        settle(session, at: 7)
        #expect(session.viewer.scene.mode == .pager)
    }

    /// The idle policy's blanking and the touch that wakes the screen go through the same switch as
    /// the remote's, with their own words in the log and STATUS=.
    @Test func idleBlanksAndATouchWakesWithoutReachingTheScene() throws {
        let session = try session(blankAfter: 30)
        #expect(session.dispatch(.time, now: 29, wall: 0).isEmpty)
        #expect(session.nextDeadline == 30)
        #expect(session.dispatch(.time, now: 30, wall: 0) == [.screenOff(log: "idle for 30 s: ", status: .displayOff("idle"))])
        #expect(touch(session, fingers: 1, at: 40) == [.screenOn(log: "touch: display on", status: .showing)])
        #expect(touch(session, fingers: 0, at: 40.1).isEmpty)
        settle(session, at: 42)
        // The waking touch was a tap on the first cell, but it only woke the screen.
        #expect(session.viewer.scene.mode == .grid)
        #expect(session.touches == 1)
    }

    /// "reload" is the run loop's work (the files) and is not input: it neither wakes the screen
    /// nor restarts the idle time.
    @Test func reloadIsLeftToTheLoopAndIsNotInput() throws {
        let session = try session(blankAfter: 30)
        #expect(remote(session, .reload, at: 29) == [.reload])
        #expect(session.dispatch(.time, now: 30, wall: 0).count == 1)
        #expect(remote(session, .reload, at: 31) == [.reload])
        #expect(!session.isScreenOn)
    }

    /// While `run` waits for a display there is no session: only "reload" has work to do.
    @Test func withoutAScreenOnlyReloadIsTaken() {
        #expect(KioskSession.dispatchWithoutScreen(.remote(.reload)) == [.reload])
        #expect(KioskSession.dispatchWithoutScreen(.remote(.open(1)))
            == [.ignored("remote: open has nothing to act on while waiting for a display")])
        #expect(KioskSession.dispatchWithoutScreen(.time).isEmpty)
    }

    /// The remote snapshot comes from the service's facts and the session's; a photo opened counts
    /// once as shown, when a frame shows it.
    @Test func theSnapshotTellsTheLibraryWhileWaitingAndWhatIsShownAfter() throws {
        let status = ServiceStatus(notifier: nil, logger: Logger(label: "test"), now: 10)
        status.photoCount = 4
        status.photosSkipped = ["empty": 1]
        status.set(.waitingForDisplay("no card"))
        let waiting = RemoteSnapshot(version: "1", status: status, session: nil, now: 12)
        #expect(waiting.state == .waitingForDisplay && waiting.stateDetail == "no card")
        #expect(waiting.photoCount == 4 && waiting.uptime == 2 && !waiting.screenOn && waiting.mode == nil)
        #expect(waiting.photosSkipped.first { $0.reason == "empty" }?.count == 1)

        let session = try session()
        status.display = .init(connector: "HDMI-A-1", mode: "640x400@60", connected: true)
        status.set(.showing)
        remote(session, .open(2), at: 1)
        for time in stride(from: 1.0, through: 3, by: 1.0 / 60) {
            if case let .draw(frame, moving) = session.nextStep(now: time, flipPending: false, nextVblank: time) {
                _ = session.presented(frame, at: time, composeTime: 0, moving: moving)
            }
        }
        let showing = RemoteSnapshot(version: "1", status: status, session: session, now: 13)
        #expect(showing.screenOn && showing.mode == "pager" && showing.currentIndex == 2)
        #expect(showing.currentFile == "03-dragonfly.jpg")
        #expect(showing.photosShown == 1)
    }
}

private extension KioskSession.Step {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
