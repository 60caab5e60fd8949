import Config
import Geometry
import Logging
import Rendering
import Scene
import Testing
import TestSupport
import Touch
@testable import VitrineApp

/// The loop draws a frame only when it shows another picture than the one on screen; content that
/// changes at rest (a clip's next frame, held under a finger) is another picture.
@Suite struct ContentAtRestTests {
    @Test func aFrameWhoseContentChangedAtRestIsDrawnAgainAndAnIdenticalOneIsNot() throws {
        var settings = Settings()
        settings.photos.directory = TestPaths.samplePhotos
        let logger = Logger(label: "test")
        let viewer = Viewer(settings: settings, screenSize: Size(width: 640, height: 400),
                            items: try PhotoFolder.scan(settings.photos, logger: logger), logger: logger, onDecoded: {})
        let session = KioskSession(viewer: viewer, settings: settings, refreshPeriod: 1.0 / 60, now: 0, zone: .utc)
        func step(_ now: Double) -> SceneFrame? {
            guard case let .draw(frame, moving) = session.nextStep(now: now, flipPending: false, nextVblank: now) else { return nil }
            _ = session.presented(frame, at: now, composeTime: 0, moving: moving)
            return frame
        }
        let first = try #require(step(1))
        let cell = try #require(first.gridCells.first)
        // A finger rests on the grid: frames are sampled at every vblank, and none differs.
        _ = session.dispatch(.input(.touch(TouchFrame(time: 2, contacts: [TouchContact(id: 0, position: Point(x: 5, y: 5))]))), now: 2, wall: 0)
        #expect(viewer.scene.isTouching)
        #expect(step(2.02) == nil)
        #expect(step(2.04) == nil)
        // The cell's content shows its next picture: that frame is drawn, then none again.
        viewer.scene.setContentVersion(1, of: cell.index)
        let drawn = try #require(step(2.06))
        #expect(drawn.gridCells.first { $0.index == cell.index }?.contentVersion == 1)
        #expect(step(2.08) == nil)
    }
}
