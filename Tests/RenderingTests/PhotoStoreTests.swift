import Config
import Foundation
import Geometry
import Logging
import Photos
import Scene
import TestSupport
import Testing
@testable import Rendering

/// What the photo store asks the decoder for, in what order, and that the photo on screen stays
/// decoded when the cache is tight.
@Suite struct PhotoStoreTests {
    private static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// A store over photos that are never decoded (only its want list is looked at).
    private static func store() -> PhotoStore {
        let items = (0..<12).map {
            LibraryItem.still(PhotoInfo(path: "/nonexistent/\($0).jpg", fileSize: 1, modified: Date(timeIntervalSince1970: 0),
                                        format: "JPEG", storedSize: ImageSize(width: 400, height: 300), orientation: .normal))
        }
        return PhotoStore(items: items, screenSize: Size(width: 160, height: 100), cellSide: 36, cacheMegabytes: 16,
                          maxMegapixels: 100, logger: logger, onDecoded: {})
    }

    private static func frame(_ mode: SceneMode, current: Int?, cells: [GridCell] = [], pages: [Int] = [],
                              moving: Int? = nil) -> SceneFrame {
        let rect = Rect(x: 0, y: 0, width: 160, height: 100)
        return SceneFrame(time: 0, mode: mode, currentIndex: current, gridScroll: 0, drawsGrid: mode != .pager,
                          gridCells: cells, hiddenIndex: moving, backgroundAlpha: 0.5,
                          pages: pages.map { PhotoPlacement(index: $0, rect: rect) },
                          movingPhoto: moving.map { PhotoPlacement(index: $0, rect: rect) })
    }

    private static func cell(_ index: Int, y: Double) -> GridCell {
        GridCell(index: index, rect: Rect(x: 4, y: y, width: 36, height: 36))
    }

    @Test func thePagerAsksForItsPageThenTheOneSlidingInThenTheNeighbours() throws {
        let store = Self.store()
        let wanted = store.wanted(for: Self.frame(.pager, current: 5, pages: [6, 5]), screenHeight: 100)
        #expect(wanted == [.screen(5), .screen(6), .thumbnail(5), .screen(4), .screen(6)])
    }

    @Test func aTransitionAsksForItsPhotoThenTheVisibleCellsFromTheCentreOutward() throws {
        let store = Self.store()
        // Cells on screen at 4, 44 (the centre row) and 84; off screen at -40 and 124.
        let cells = [Self.cell(0, y: -40), Self.cell(1, y: 4), Self.cell(2, y: 44), Self.cell(3, y: 84), Self.cell(4, y: 124)]
        let wanted = store.wanted(for: Self.frame(.dismissing, current: 3, cells: cells, moving: 3), screenHeight: 100)
        #expect(wanted == [.screen(3), .thumbnail(3), .thumbnail(3), .screen(2), .screen(4),
                           .thumbnail(2), .thumbnail(1), .thumbnail(3), .thumbnail(0), .thumbnail(4)])
    }

    /// At 3840x2160 with the default 128 MB the photo on screen (3240x2160: 37 MB with its levels,
    /// 84 MB while it decodes) and the decode of a neighbour of the same size do not fit together:
    /// the neighbours give way, and the photo on screen stays decoded.
    @Test func theOpenPhotoStaysDecodedAt4KWith128Megabytes() throws {
        let folder = try TestPaths.temporaryDirectory("budget")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["a", "b", "c"] {
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/01-lakeside.jpg", toPath: folder + "/\(name).jpg")
        }
        var settings = Settings()
        settings.photos.directory = folder
        #expect(settings.cache.megabytes == 128)
        let items = try PhotoLibrary(scanning: folder, logger: Self.logger).items
        let viewer = Viewer(settings: settings, screenSize: Size(width: 3840, height: 2160), items: items,
                            logger: Self.logger, onDecoded: {})
        viewer.scene.open(1, at: 0)
        var time = 0.0
        repeat {
            time += 0.1
            _ = viewer.frame(at: time)
            viewer.store.waitUntilSettled()
        } while viewer.scene.isAnimating
        for _ in 0..<3 {  // frames at rest ask again; nothing they decode may push the photo out
            time += 0.1
            _ = viewer.frame(at: time)
            viewer.store.waitUntilSettled()
        }

        #expect(viewer.scene.frame(at: time).mode == .pager)
        let image = try #require(viewer.store.screenImage(1))
        #expect(image.width == 3240 && image.height == 2160)
        #expect(image.levels.count > 1)
        #expect(viewer.store.decodedBytes <= 128 << 20)
    }
}
