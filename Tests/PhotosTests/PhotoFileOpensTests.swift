import Foundation
import Linux
import Logging
import Photos
import TestSupport
import Testing

/// A photo's file is opened once by the scan and once per decode; its caption comes from the bytes
/// the screen image's decode read (before: twice by the scan, once per decode and once more for
/// the caption, 5 opens to show one photo in the grid and the pager).
@Suite struct PhotoFileOpensTests {
    /// Counts the opens of each path through the Linux layer's reader.
    final class OpenCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var opens: [String: Int] = [:]

        var opener: PhotoFileOpener {
            PhotoFileOpener { [self] path throws(SystemError) in
                lock.withLock { opens[path, default: 0] += 1 }
                return try RegularFile(path: path)
            }
        }

        func count(_ path: String) -> Int { lock.withLock { opens[path] ?? 0 } }
        var total: Int { lock.withLock { opens.values.reduce(0, +) } }
    }

    @Test func aPhotoShownInTheGridAndThePagerIsOpenedOncePerStep() throws {
        let folder = try TemporaryDirectory("opens")
        defer { folder.remove() }
        let path = folder.file("photo.jpg")
        try Data(CaptionJPEG.photo([CaptionJPEG.xmp(title: "Harbour", description: "At dusk")])).write(to: URL(fileURLWithPath: path))
        let counter = OpenCounter()
        let logger = LogRecorder().logger

        let library = try PhotoLibrary(scanning: folder.path, files: counter.opener, logger: logger)
        #expect(library.items.map(\.path) == [path])
        #expect(counter.count(path) == 1)  // the scan: the header, from one open

        let images = LibraryImages(items: library.items, screenSize: ImageSize(width: 160, height: 100), cellSide: 36,
                                   cacheMegabytes: 16, decoding: DecodeOptions(files: counter.opener),
                                   captionReader: CaptionReader(), logger: logger, onDecoded: {})
        images.want([.thumbnail(0)])
        images.waitUntilSettled()
        #expect(images.thumbnail(0) != nil)
        #expect(counter.count(path) == 2)  // the thumbnail's decode

        images.want([.screen(0), .thumbnail(0)])
        images.waitUntilSettled()
        #expect(images.screenImage(0) != nil)
        // The caption was read with the screen image, from the bytes its decode read.
        #expect(images.caption(0) == Caption(title: "Harbour", description: "At dusk", source: .xmp))
        #expect(counter.count(path) == 3)  // the screen image's decode, caption included
        #expect(counter.total == 3)  // the sidecar photo.txt is looked for, but not through the photo reader
    }

    @Test func theFormatIsToldByContentNotByName() throws {
        let folder = try TemporaryDirectory("sniff")
        defer { folder.remove() }
        // A JPEG named .jpeg and a PNG named .jpg.
        try FileManager.default.copyItem(atPath: TestJPEGs.path("orientation/Landscape_1.jpg"), toPath: folder.file("a.jpeg"))
        try FileManager.default.copyItem(atPath: TestJPEGs.path("bad/bad_png_renamed_go_video-001.jpg"), toPath: folder.file("b.jpg"))
        let log = LogRecorder()
        let library = try PhotoLibrary(scanning: folder.path, logger: log.logger)
        #expect(library.items.map(\.picture.format) == ["JPEG", "PNG"])
        #expect(library.items.map(\.kind) == [.still, .still])
        #expect(library.rejects.isEmpty)
    }

    @Test func everySkipReasonHasALabelThatNamesNoFormat() {
        #expect(PhotoError.Reason.labels.allSatisfy { !$0.contains("jpeg") && !$0.contains("jpg") })
        #expect(PhotoError.Reason.corrupt(format: "JPEG", "Bogus marker").label == "corrupt")
        #expect(PhotoError.Reason.unknownFormat(firstBytes: [0x52, 0x49]).label == "unknown_format")
        #expect("\(PhotoError.Reason.corrupt(format: "JPEG", "Bogus marker"))" == "corrupt or unsupported JPEG: Bogus marker")
    }
}
