import Config
import Geometry
import Logging
import Remote
import Rendering
import Scene
import Testing
import TestSupport
@testable import VitrineApp

/// `POST /control`'s actions as the session carries them out (SPEC §9), in virtual time.
@Suite struct KioskSessionControlTests {
    private func session() throws -> KioskSession {
        var settings = Settings()
        settings.photos.directory = TestPaths.samplePhotos
        let logger = Logger(label: "test")
        let photos = try PhotoFolder.scan(settings.photos, logger: logger)
        let viewer = Viewer(settings: settings, screenSize: Size(width: 640, height: 400), items: photos,
                            logger: logger, onDecoded: {})
        return KioskSession(viewer: viewer, settings: settings, refreshPeriod: 1.0 / 60, now: 0, zone: .utc)
    }

    /// Runs the scene on to `until` so transitions end.
    private func settle(_ session: KioskSession, at time: Double) {
        _ = session.viewer.frame(at: time)
    }

    @Test func navigationOpensPagesAndCloses() throws {
        let session = try session()
        let scene = session.viewer.scene
        #expect(session.control(.open(2), now: 1).isEmpty)
        settle(session, at: 3)
        #expect(scene.mode == .pager && scene.currentIndex == 2)
        session.control(.next, now: 3)
        settle(session, at: 5)
        #expect(scene.currentIndex == 3)
        session.control(.previous, now: 5)
        session.control(.previous, now: 5.01)
        settle(session, at: 7)
        #expect(scene.currentIndex == 1)
        session.control(.close, now: 7)
        settle(session, at: 9)
        #expect(scene.mode == .grid)
    }

    @Test func screenOffBlanksAndScreenOnOrNavigationWakes() throws {
        let session = try session()
        #expect(session.control(.screenOff, now: 1) == [.blank])
        #expect(!session.isScreenOn)
        #expect(session.nextStep(now: 1.1, flipPending: false, nextVblank: 1.1).isNone)
        #expect(session.control(.screenOn, now: 2) == [.wake])
        #expect(session.isScreenOn)
        #expect(session.control(.screenOn, now: 3).isEmpty)
        session.control(.screenOff, now: 4)
        // Paging wakes the screen too: someone asked to see a photo.
        #expect(session.control(.open(0), now: 5) == [.wake])
        settle(session, at: 7)
        #expect(session.viewer.scene.mode == .pager)
    }
}

private extension KioskSession.Step {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
