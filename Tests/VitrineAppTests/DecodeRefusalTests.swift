import Config
import Foundation
import Geometry
import Logging
import Photos
import Rendering
import Scene
import TestSupport
import Testing
@testable import VitrineApp

/// A file that cannot be shown leaves the grid whenever that is found out: the scan admits
/// PngSuite's xcsn0g01 and xhdn0g08 (their headers are sound) but their decodes refuse them (a
/// chunk's CRC), and they leave the items, the count and `/metrics`'s skips as a file the scan
/// refuses does; the pager open on one closes back to the grid; a rescan keeps them out until
/// they change.
@Suite struct DecodeRefusalTests {
    static let pngSuite = TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats/png/pngsuite").path

    @Test func aFileRefusedByItsDecodeLeavesTheGridAndTheCount() throws {
        let folder = try TemporaryDirectory("refusal")
        defer { folder.remove() }
        let samples = try FileManager.default.contentsOfDirectory(atPath: TestPaths.samplePhotos).filter { $0.hasSuffix(".jpg") }.sorted()
        for name in samples.prefix(3) {
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/" + name, toPath: folder.file(name))
        }
        // Named to sort between the samples ("01-...", "02-..."): the grid closes up around them.
        try FileManager.default.copyItem(atPath: Self.pngSuite + "/ps_xcsn0g01.png", toPath: folder.file("01a-crc.png"))
        try FileManager.default.copyItem(atPath: Self.pngSuite + "/ps_xhdn0g08.png", toPath: folder.file("02a-crc.png"))

        var settings = Settings()
        settings.photos.directory = folder.path
        let logger = Logger(label: "test")
        let status = ServiceStatus(notifier: nil, logger: logger, now: 0)
        let content = KioskContent(settings: settings, configPath: folder.file("none.toml"), logger: logger, status: status,
                                   onDecoded: {})
        let admitted = content.scan()
        #expect(admitted.count == 5)
        #expect(status.photoCount == 5)
        let refusedIndex = try #require(admitted.firstIndex { $0.name == "02a-crc.png" })

        let viewer = content.makeViewer(screen: Size(width: 640, height: 400))
        let session = KioskSession(viewer: viewer, settings: settings, refreshPeriod: 1.0 / 60, now: 0, zone: .utc)
        // The pager open on one of them: its screen image is the most urgent decode.
        session.dispatch(.remote(.open(refusedIndex)), now: 0, wall: 0)
        var refused: [PhotoError] = []
        for step in 1...20 where refused.count < 2 {
            _ = viewer.frame(at: Double(step) / 10)
            viewer.store.waitUntilSettled()
            refused += session.imagesArrived(now: Double(step) / 10)
        }
        #expect(Set(refused.map { ($0.path as NSString).lastPathComponent }) == ["01a-crc.png", "02a-crc.png"])
        #expect(refused.allSatisfy { $0.reason == .corrupt(format: "PNG", "invalid chunk checksum") })
        content.refuse(refused)
        #expect(content.items.map(\.name) == Array(samples.prefix(3)))
        #expect(viewer.store.items.map(\.name) == content.items.map(\.name))
        #expect(status.photoCount == 3)
        #expect(status.photosSkipped == ["corrupt": 2])
        // The photo open in the pager is gone: back in the grid, which has three cells.
        _ = viewer.frame(at: 3)
        #expect(viewer.scene.mode == .grid)
        #expect(viewer.scene.grid.photoCount == 3)

        // A rescan keeps them out while they are the same files, and counts them still.
        #expect(content.scan().count == 3)
        #expect(status.photosSkipped == ["corrupt": 2])
        // Replaced by a sound PNG, one is tried again.
        try FileManager.default.removeItem(atPath: folder.file("01a-crc.png"))
        try FileManager.default.copyItem(atPath: Self.pngSuite + "/ps_basn2c08.png", toPath: folder.file("01a-crc.png"))
        #expect(content.scan().map(\.name) == [samples[0], "01a-crc.png", samples[1], samples[2]])
        #expect(status.photosSkipped == ["corrupt": 1])
    }
}
