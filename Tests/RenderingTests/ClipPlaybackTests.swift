import Blitter
import Clips
import Config
import Foundation
import Geometry
import Logging
import Photos
@testable import Rendering
@testable import Scene
import TestSupport
import Testing

/// Clips as they play in the viewer (SPEC §12): which item plays, when it starts and stops, and
/// that the playing frame is the picture the page and the carried photo draw, with its own
/// content version. Frames come from plain values; each sample waits for its frame, as `simulate`.
@Suite struct ClipPlaybackTests {
    /// Opens a fresh fake source for each play of a clip, and counts them.
    final class Sources: @unchecked Sendable {
        private let lock = NSLock()
        private var opened: [String] = []
        let count: Int
        let failAt: Int?

        init(count: Int = 30, failAt: Int? = nil) {
            self.count = count
            self.failAt = failAt
        }

        var opens: [String] { lock.withLock { opened } }

        var factory: ClipPlayer.SourceFactory {
            { [self] path in
                lock.withLock { opened.append(path) }
                return (FakeClipSource(count: count, fps: 30, width: 160, height: 90, failAt: failAt), "fake (software)")
            }
        }
    }

    let screen = Size(width: 320, height: 200)

    func viewer(_ items: [LibraryItem], sources: Sources, settings: Settings = Settings(),
                logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) -> Viewer {
        let viewer = Viewer(settings: settings, screenSize: screen, items: items, logger: logger,
                            clipSources: sources.factory, onDecoded: {})
        viewer.clips.waitsForFrames = true
        return viewer
    }

    /// The items: a still, a clip, a still, a Live Photo.
    let items = [FakeClipSource.still("a"), FakeClipSource.item("b", count: 30, fps: 30, width: 160, height: 90),
                 FakeClipSource.still("c"), FakeClipSource.item("d", count: 6, fps: 30, width: 160, height: 90, live: true)]

    /// The placement that shows item `index` in `frame`.
    func placement(_ frame: SceneFrame, _ index: Int) -> PhotoPlacement? {
        frame.movingPhoto?.index == index ? frame.movingPhoto : frame.pages.first { $0.index == index }
    }

    @Test func aClipPlaysFromTheOpeningOnAndItsFrameIsWhatThePageDraws() throws {
        let sources = Sources()
        let viewer = viewer(items, sources: sources)
        _ = viewer.frame(at: 0)
        viewer.scene.open(1, at: 0.5)
        var versions: [Int] = []
        var canvas = Bitmap(width: 320, height: 200)
        for n in 30...66 {
            let frame = viewer.frame(at: Double(n) / 60)
            let shown = try #require(viewer.clips.current)
            // The clip started with the opening: the frame due at its time.
            #expect(shown.frame == (n - 30) / 2)
            #expect(abs(shown.time - Double(n - 30) / 60) < 1e-6)
            versions.append(try #require(placement(frame, 1)).contentVersion)
            // The grid cell keeps its poster: its version never changes.
            #expect(frame.gridCells.allSatisfy { $0.contentVersion == 0 })
            viewer.draw(frame, into: &canvas)
        }
        #expect(viewer.scene.mode == .pager)
        // A new version with each new frame, none for the vblank between.
        #expect(versions.allSatisfy { $0 > 0 })
        #expect(Set(versions).count == 19)
        // The page draws the frame shown: frame 18 fills the middle of the screen.
        #expect(canvas[160, 100] == FakeClipSource.colour(18))
        #expect(viewer.store.screenImage(1)?.image[0, 0] == FakeClipSource.colour(18))
        #expect(sources.opens == ["/nonexistent/b.mp4"])
        #expect(viewer.clips.framesShown == 19 && viewer.clips.framesDropped == 0)
    }

    @Test func theGridStopsItAndOpeningItAgainStartsFromItsFirstFrame() throws {
        let sources = Sources()
        let viewer = viewer(items, sources: sources)
        viewer.scene.open(1, at: 0)
        var t = 0.0
        while t < 1 { _ = viewer.frame(at: t); t += 1.0 / 60 }
        #expect(try #require(viewer.clips.current).frame > 20)
        // The closing carries the playing picture; the grid stops it.
        viewer.scene.close(at: t)
        let closing = viewer.frame(at: t)
        #expect(closing.mode == .closing && (closing.movingPhoto?.contentVersion ?? 0) > 0)
        while viewer.scene.mode != .grid { t += 1.0 / 60; _ = viewer.frame(at: t) }
        #expect(viewer.clips.playingIndex == nil && viewer.clips.current == nil)
        viewer.scene.open(1, at: t)
        _ = viewer.frame(at: t)
        #expect(try #require(viewer.clips.current).frame == 0)
        #expect(sources.opens.count == 2)
    }

    @Test func pagingAwayStopsItAndComingBackStartsItAgain() throws {
        let sources = Sources()
        let viewer = viewer(items, sources: sources)
        viewer.scene.open(1, at: 0)
        var t = 0.0
        while t < 0.8 { _ = viewer.frame(at: t); t += 1.0 / 60 }
        viewer.scene.showNext(at: t)
        let paging = viewer.frame(at: t)
        #expect(paging.currentIndex == 2 && viewer.clips.playingIndex == nil)
        // The clip's page slides out with its poster.
        #expect(placement(paging, 1)?.contentVersion == 0)
        while t < 1.6 { _ = viewer.frame(at: t); t += 1.0 / 60 }
        viewer.scene.showPrevious(at: t)
        _ = viewer.frame(at: t)
        #expect(try #require(viewer.clips.current).frame == 0)
        #expect(sources.opens.count == 2)
    }

    @Test func withClipsPlayOffOrOverTheMegapixelLimitTheClipShowsItsPoster() throws {
        var settings = Settings()
        settings.clips.play = false
        let sources = Sources()
        let off = viewer(items, sources: sources, settings: settings)
        off.scene.open(1, at: 0)
        let frame = off.frame(at: 0.1)
        #expect(off.clips.current == nil && placement(frame, 1)?.contentVersion == 0)
        #expect(sources.opens.isEmpty)

        let recorder = LogRecorder()
        let big = [FakeClipSource.item("4k", count: 30, fps: 30, width: 3840, height: 2160)]
        let viewer = viewer(big, sources: sources, logger: recorder.logger)
        for visit in 0..<2 {
            let t = Double(visit)
            viewer.scene.open(0, at: t)
            _ = viewer.frame(at: t)
            viewer.scene.resetToGrid(at: t + 0.5)
            _ = viewer.frame(at: t + 0.5)
        }
        #expect(sources.opens.isEmpty)
        let warnings = recorder.messages.filter { $0.level == .warning && $0.text.hasPrefix("Clip ") }.map(\.text)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("/nonexistent/4k.mp4") == true && warnings.first?.contains("clips.max_megapixels") == true)
    }

    @Test func aLivePhotoPlaysOnceWhenOpenedThenItsStillReturns() throws {
        var settings = Settings()
        settings.clips.livePhotos = .open
        let sources = Sources(count: 6)
        let viewer = viewer(items, sources: sources, settings: settings)
        viewer.scene.open(3, at: 0)
        var shown: [Int] = []
        var t = 0.0
        while t < 1 {
            _ = viewer.frame(at: t)
            if let current = viewer.clips.current { shown.append(current.frame) }
            t += 1.0 / 60
        }
        // Six frames of two vblanks each, once; then the still (never decoded here) again.
        #expect(shown == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
        #expect(viewer.clips.playingIndex == nil && viewer.store.screenImage(3) == nil)
        #expect(placement(viewer.frame(at: t), 3)?.contentVersion == 0)
        #expect(sources.opens == ["/nonexistent/d.mov"])
    }

    @Test func aLivePhotoHeldPlaysOnceAndOffNeverPlays() throws {
        let sources = Sources(count: 6)
        let viewer = viewer(items, sources: sources)  // live_photos = "hold"
        viewer.scene.open(3, at: 0)
        var t = 0.0
        while t < 0.7 { _ = viewer.frame(at: t); t += 1.0 / 60 }
        #expect(sources.opens.isEmpty)
        viewer.scene.pageHold = PageHold(index: 3, time: t)
        _ = viewer.frame(at: t)
        #expect(viewer.clips.current?.frame == 0)
        // The same hold does not start it again once it played.
        while t < 1.5 { _ = viewer.frame(at: t); t += 1.0 / 60 }
        #expect(viewer.clips.playingIndex == nil && sources.opens.count == 1)

        var settings = Settings()
        settings.clips.livePhotos = .off
        let off = self.viewer(items, sources: sources, settings: settings)
        off.scene.open(3, at: 0)
        off.scene.pageHold = PageHold(index: 3, time: 0.6)
        _ = off.frame(at: 0.6)
        #expect(off.clips.playingIndex == nil && sources.opens.count == 1)
    }

    @Test func aClipThatFailsMidwayShowsItsPosterWithOneWarningAndIsNotTriedAgain() throws {
        let sources = Sources(failAt: 8)
        let recorder = LogRecorder()
        let viewer = viewer(items, sources: sources, logger: recorder.logger)
        for visit in 0..<2 {
            var t = Double(visit) * 2
            viewer.scene.open(1, at: t)
            while t < Double(visit) * 2 + 1 { _ = viewer.frame(at: t); t += 1.0 / 60 }
            #expect(viewer.clips.playingIndex == nil)
            #expect(placement(viewer.frame(at: t), 1)?.contentVersion == 0)
            viewer.scene.resetToGrid(at: t)
            _ = viewer.frame(at: t)
        }
        #expect(sources.opens.count == 1)
        let warnings = recorder.messages.filter { $0.level == .warning && $0.text.hasPrefix("Clip ") }.map(\.text)
        #expect(warnings == ["Clip /nonexistent/b.mp4 stopped playing: corrupt packet; showing its poster frame"])
        #expect(recorder.messages.contains { $0.text == "Clip /nonexistent/b.mp4 plays at 160x90 through fake (software)" })
    }

    @Test func theFramesAreDecodedAtTheSizeTheScreenShowsNeverLargerThanTheClip() {
        let viewer = viewer(items, sources: Sources())
        let small = ClipInfo(container: "", codec: "", storedWidth: 160, storedHeight: 90, rotation: 0, duration: 1, frameRate: 30)
        let large = ClipInfo(container: "", codec: "", storedWidth: 1920, storedHeight: 1080, rotation: 0, duration: 1, frameRate: 30)
        let upright = ClipInfo(container: "", codec: "", storedWidth: 1920, storedHeight: 1080, rotation: 90, duration: 1, frameRate: 30)
        #expect(viewer.clips.frameSize(of: small) == ImageSize(width: 160, height: 90))
        #expect(viewer.clips.frameSize(of: large) == ImageSize(width: 320, height: 180))
        #expect(viewer.clips.frameSize(of: upright) == ImageSize(width: 113, height: 200))
    }
}
