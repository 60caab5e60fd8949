import Config
import Foundation
import Geometry
import Logging
import Photos
import Scene
import TestSupport
import Testing
@testable import VitrineApp

/// The tour `vitrine run` shows without a display must show the product: every step has to land.
@Suite struct DemoTourTests {
    /// A SceneInput that records every frame the simulation produced.
    final class Recorder: ScriptedInput {
        let tour: DemoTour
        var frames: [SceneFrame] = []
        init(_ tour: DemoTour) { self.tour = tour }
        var endTime: Double { tour.endTime }
        func events(through time: Double, lastFrame: SceneFrame) -> [SceneInput] {
            frames.append(lastFrame)
            return tour.events(through: time, lastFrame: lastFrame)
        }
    }

    @Test(arguments: [Size(width: 1920, height: 1080), Size(width: 800, height: 1280)])
    func everyStepOfTheTourLands(screen: Size) throws {
        let logger = Logger(label: "test")
        let photos = try PhotoLibrary(scanning: TestPaths.samplePhotos, logger: logger).photos
        let recorder = Recorder(DemoTour(screenSize: screen))
        _ = try Simulator.simulate(settings: Settings(), screenSize: screen, photos: photos, input: recorder,
                                   duration: nil, snapshots: [], outputDirectory: "", tracePath: nil, logger: logger)
        func mode(at t: Double) -> SceneMode? { recorder.frames.last { $0.time <= t + 1e-9 }?.mode }
        let tour = recorder.tour
        let modes = tour.highlights.map { (name: $0.name, mode: mode(at: $0.time)) }
        let expected: [String: SceneMode] = [
            "grid": .grid, "opening": .opening, "pager": .pager, "dismiss-drag": .dismissing,
            "dismiss-flying-back": .dismissing, "grid-after-dismiss": .grid, "pager-second-photo": .pager,
            "double-tap-zoomed": .pager, "closing": .closing, "grid-at-rest": .grid,
        ]
        for (name, mode) in modes {
            if let want = expected[name] { #expect(mode == want, "\(name) at \(screen)") }
        }
        // Paging moved to the next photo; the double tap zoomed the second photo past the screen.
        let paged = recorder.frames.filter { $0.mode == .pager }.compactMap(\.currentIndex)
        #expect(Set(paged).count >= 3)
        let zoomed = recorder.frames.last { $0.time <= 7.7 }?.photoRect
        #expect((zoomed?.width ?? 0) > screen.width)
    }
}
