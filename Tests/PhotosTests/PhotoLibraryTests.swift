import Foundation
import Logging
import Photos
import TestSupport
import Testing

@Suite struct PhotoLibraryTests {
    /// A directory like an integrator's: mixed-case extensions, names that need natural order,
    /// a text file, a hidden photo, a folder named like a photo, and bad JPEGs.
    static func makeFolder() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let fm = FileManager.default
        try fm.copyItem(atPath: TestJPEGs.path("orientation/Landscape_1.jpg"), toPath: dir.file("img10.JPG"))
        try fm.copyItem(atPath: TestJPEGs.path("variants/go_video-001.q50.444.jpeg"), toPath: dir.file("img2.jpeg"))
        try fm.copyItem(atPath: TestJPEGs.path("orientation/Portrait_6.jpg"), toPath: dir.file("IMG3.Jpeg"))
        try fm.copyItem(atPath: TestJPEGs.path("variants/moz_jpg-size-1x1.jpg"), toPath: dir.file(".hidden.jpg"))
        try fm.copyItem(atPath: TestJPEGs.path("bad/bad_text_renamed_README.jpg"), toPath: dir.file("notes.txt"))
        try fm.copyItem(atPath: TestJPEGs.path("bad/bad_bomb_60000x60000_ljt_testorig.jpg"), toPath: dir.file("bomb.jpg"))
        try fm.copyItem(atPath: TestJPEGs.path("bad/bad_truncated_after_header_ljt_testorig.jpg"), toPath: dir.file("cut.jpeg"))
        try fm.createDirectory(atPath: dir.file("folder.jpg"), withIntermediateDirectories: false)
        return dir
    }

    @Test func scanKeepsPhotosAndRejectsBadFiles() throws {
        let dir = try Self.makeFolder()
        defer { dir.remove() }
        let log = LogRecorder()
        let library = try PhotoLibrary(scanning: dir.path, order: .name, maxMegapixels: 100, logger: log.logger)

        #expect(library.items.map(\.name) == ["img2.jpeg", "IMG3.Jpeg", "img10.JPG"])
        let portrait = library.items[1].picture
        #expect(portrait.storedSize == ImageSize(width: 1800, height: 1200))
        #expect(portrait.orientation == .rotate90)
        #expect(portrait.size == ImageSize(width: 1200, height: 1800))
        #expect(portrait.fileSize == 251800)

        #expect(library.rejects.map(\.path) == [dir.file("bomb.jpg"), dir.file("cut.jpeg")])
        #expect(library.rejects.map(\.reason) == [.tooLarge(width: 60000, height: 60000, maxMegapixels: 100), .noImageData])
        // One warning per bad file, naming it and the reason.
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 2)
        #expect(warnings[0].contains("bomb.jpg") && warnings[0].contains("too large"))
        #expect(warnings[1].contains("cut.jpeg") && warnings[1].contains("no image data"))
    }

    @Test func aFIFOOrADeviceWithAPhotosNameIsSkippedWithAWarning() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: TestJPEGs.path("orientation/Landscape_1.jpg"), toPath: dir.file("a.jpg"))
        #expect(mkfifo(dir.file("fifo.jpg"), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.file("zero.jpg"), withDestinationPath: "/dev/zero")
        let log = LogRecorder()
        let library = try PhotoLibrary(scanning: dir.path, logger: log.logger)
        #expect(library.items.map(\.name) == ["a.jpg"])
        #expect(library.rejects.map(\.description) == [
            "\(dir.file("fifo.jpg")): not a regular file (a FIFO)",
            "\(dir.file("zero.jpg")): not a regular file (a character device)",
        ])
        #expect(log.messages.filter { $0.level == .warning }.count == 2)
    }

    @Test func sortsByModificationTime() throws {
        let dir = try Self.makeFolder()
        defer { dir.remove() }
        let fm = FileManager.default
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        try fm.setAttributes([.modificationDate: base.addingTimeInterval(30)], ofItemAtPath: dir.file("img2.jpeg"))
        try fm.setAttributes([.modificationDate: base.addingTimeInterval(10)], ofItemAtPath: dir.file("img10.JPG"))
        try fm.setAttributes([.modificationDate: base.addingTimeInterval(20)], ofItemAtPath: dir.file("IMG3.Jpeg"))
        let library = try PhotoLibrary(scanning: dir.path, order: .modified, logger: LogRecorder().logger)
        #expect(library.items.map(\.name) == ["img10.JPG", "IMG3.Jpeg", "img2.jpeg"])
        #expect(library.items[0].modified == base.addingTimeInterval(10))
    }

    /// A Live Photo whose .mov is broken: the still is a still, and the motion, once the decoder
    /// lists clips' names, one reject with one warning, as any bad file.
    @Test func aLivePhotosBrokenMotionLeavesItsStillAStill() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: TestJPEGs.path("orientation/Landscape_1.jpg"), toPath: dir.file("IMG_1234.JPG"))
        try Data("not a movie at all".utf8).write(to: URL(fileURLWithPath: dir.file("IMG_1234.MOV")))
        let log = LogRecorder()
        let library = try PhotoLibrary(scanning: dir.path, logger: log.logger)
        #expect(library.items.map(\.name) == ["IMG_1234.JPG"])
        #expect(library.items.first?.kind == .still)
        let listed = PhotoLibrary.isPhotoName("IMG_1234.MOV")
        #expect(library.rejects.map(\.path) == (listed ? [dir.file("IMG_1234.MOV")] : []))
        #expect(log.messages.filter { $0.level == .warning }.count == (listed ? 1 : 0))
    }

    @Test func missingDirectoryThrows() {
        #expect(throws: PhotoError.self) {
            try PhotoLibrary(scanning: "/nonexistent/vitrine-photos", logger: LogRecorder().logger)
        }
    }

    @Test func naturalOrder() {
        let names = ["img10.jpg", "IMG2.jpg", "img1.jpg", "a.jpg", "img02.jpg", "Img2.jpg", "b10x.jpg", "b9x.jpg", "img100.jpg"]
        #expect(names.sorted(by: NaturalOrder.areInIncreasingOrder)
            == ["a.jpg", "b9x.jpg", "b10x.jpg", "img1.jpg", "IMG2.jpg", "Img2.jpg", "img02.jpg", "img10.jpg", "img100.jpg"])
    }

    @Test func photoNames() {
        #expect(PhotoLibrary.isPhotoName("a.JPG") && PhotoLibrary.isPhotoName("b.jpeg") && PhotoLibrary.isPhotoName("c.JpEg"))
        #expect(PhotoLibrary.isPhotoName("d.png") && PhotoLibrary.isPhotoName("e.PNG"))
        #expect(!PhotoLibrary.isPhotoName(".a.jpg") && !PhotoLibrary.isPhotoName("a.txt") && !PhotoLibrary.isPhotoName("jpg"))
    }

    /// SPEC §4: the partial files of copy and sync tools, each with a JPEG inside, never show.
    @Test func partialFilesOfCopyAndSyncToolsAreNeverShown() throws {
        let dir = try TemporaryDirectory("partial")
        defer { dir.remove() }
        let partial = [".syncthing.beach.jpg.tmp", ".beach.jpg.Xa3kQ9", ".beach.jpg", "beach.jpg.part", "beach.JPG.PART",
                       "beach.jpg.partial", "beach.jpg.crdownload", "beach.jpg.tmp", "beach.jpg~"]
        for name in partial + ["beach.jpg"] {
            try FileManager.default.copyItem(atPath: TestJPEGs.path("variants/moz_jpg-size-1x1.jpg"), toPath: dir.file(name))
            #expect(PhotoLibrary.isPartialName(name) == (name != "beach.jpg"), "\(name)")
        }
        let library = try PhotoLibrary(scanning: dir.path, logger: Logger(label: "test"))
        #expect(library.items.map { ($0.path as NSString).lastPathComponent } == ["beach.jpg"])
        #expect(library.rejects.isEmpty)
        // Names the folder watch knows are being written are left out until they are complete.
        let writing = try PhotoLibrary(scanning: dir.path, excluding: ["beach.jpg"], logger: Logger(label: "test"))
        #expect(writing.items.isEmpty)
    }
}
