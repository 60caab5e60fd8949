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
        let photos = try PhotoLibrary(scanning: TestPaths.samplePhotos, logger: logger).items
        let recorder = Recorder(DemoTour(screenSize: screen))
        _ = try Simulator.simulate(settings: Settings(), screenSize: screen, items: photos, input: recorder,
                                   duration: nil, snapshots: [], outputDirectory: "", tracePath: nil, logger: logger)
        func mode(at t: Double) -> SceneMode? { recorder.frames.last { $0.time <= t + 1e-9 }?.mode }
        let tour = recorder.tour
        let modes = tour.highlights.map { (name: $0.name, mode: mode(at: $0.time)) }
        let expected: [String: SceneMode] = [
            "grid": .grid, "opening": .opening, "pager": .pager, "dismiss-drag": .dismissing,
            "dismiss-flying-back": .dismissing, "grid-after-dismiss": .grid, "pager-second-photo": .pager,
            "double-tap-zoomed": .pager, "zoomed-coasting": .pager, "edge-hand-off": .pager,
            "pinch-to-close": .dismissing, "grid-after-pinch": .grid, "pager-last-photo": .pager,
            "closing": .closing, "grid-at-rest": .grid,
        ]
        for (name, mode) in modes {
            if let want = expected[name] { #expect(mode == want, "\(name) at \(screen)") }
        }
        // Paging moved to the next photo; the double tap zoomed the second photo past the screen.
        let paged = recorder.frames.filter { $0.mode == .pager }.compactMap(\.currentIndex)
        #expect(Set(paged).count >= 3)
        let zoomed = recorder.frames.last { $0.time <= 7.7 }?.photoRect
        #expect((zoomed?.width ?? 0) > screen.width)
        // The flick: the zoomed photo still moves after the finger lifted, and comes to rest with
        // its right edge on the screen's.
        let flick = recorder.frames.filter { $0.time > 7.9 && $0.time < 8.9 }.compactMap(\.photoRect)
        #expect(Set(flick.map(\.x)).count > 10)
        let rested = try #require(recorder.frames.last { $0.time <= 8.95 }?.photoRect)
        #expect(abs(rested.maxX - screen.width) < 0.5 && rested.width > screen.width)
        // The hand-off: the zoomed photo moves as a page beside the next one; then the next is current.
        let handOff = try #require(recorder.frames.last { $0.time <= 9.25 })
        let leaving = try #require(handOff.pages.first { $0.index == handOff.currentIndex })
        #expect(leaving.rect.width > screen.width && handOff.pages.count == 2)
        let next = try #require(recorder.frames.last { $0.time <= 10.2 })
        #expect(next.currentIndex == (handOff.currentIndex ?? 0) + 1 && next.mode == .pager)
        // Pinch to close: the grid shows through while the photo shrinks about the fingers.
        let pinched = try #require(recorder.frames.last { $0.time <= 10.45 })
        #expect(pinched.backgroundAlpha < 1 && (pinched.photoRect?.width ?? .infinity) < screen.width)
    }
}
