import Config
import Foundation
import Geometry
import Logging
import Photos
import Scene
import TestSupport
import Testing
import Rendering

/// The viewer keeps grid thumbnails on disk in `cache.directory`, and a second start shows the
/// grid from them without decoding the originals again.
@Suite struct ThumbnailStartTests {
    private func start(cacheDirectory: String?) throws -> (viewer: Viewer, visible: [Int]) {
        var settings = Settings()
        settings.photos.directory = TestPaths.samplePhotos
        settings.cache.directory = cacheDirectory
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let photos = try PhotoLibrary(scanning: settings.photos.directory, logger: logger).items
        let screen = Size(width: 800, height: 480)
        let viewer = Viewer(settings: settings, screenSize: screen, items: photos, logger: logger, onDecoded: {})
        let frame = viewer.frame(at: 0)
        let visible = frame.gridCells.filter { $0.rect.intersection(Rect(origin: .zero, size: screen)) != nil }.map(\.index)
        viewer.store.waitUntilSettled()
        return (viewer, visible)
    }

    @Test func aSecondStartReadsTheGridFromDisk() throws {
        let directory = try TestPaths.temporaryDirectory("thumbnails")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try start(cacheDirectory: directory)
        let written = try #require(first.viewer.store.thumbnailCacheStatistics).writes
        #expect(!first.visible.isEmpty)
        #expect(written >= first.visible.count)
        #expect(first.visible.allSatisfy { first.viewer.store.thumbnail($0) != nil })
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/thumbnails")
        #expect(files.filter { $0.hasSuffix(".jpg") }.count == written)

        let second = try start(cacheDirectory: directory)
        let statistics = try #require(second.viewer.store.thumbnailCacheStatistics)
        #expect(statistics.hits == written)
        #expect(statistics.misses == 0 && statistics.writes == 0)
        #expect(second.visible.allSatisfy { second.viewer.store.thumbnail($0) != nil })
    }

    @Test func withoutADirectoryThereIsNoDiskCache() throws {
        // The test runner is not a systemd service: no $CACHE_DIRECTORY either.
        guard ProcessInfo.processInfo.environment["CACHE_DIRECTORY"] == nil else { return }
        let plain = try start(cacheDirectory: nil)
        #expect(plain.viewer.store.thumbnailCacheStatistics == nil)
        #expect(plain.visible.allSatisfy { plain.viewer.store.thumbnail($0) != nil })
    }
}
