import Foundation
import Glibc
import Linux
import Logging
import TestSupport
import Testing
@testable import VitrineApp

/// The photo folder watch with real files in a real folder: what a kiosk integrator does to it.
@Suite struct PhotoFolderWatchTests {
    final class Watched {
        let folder: String
        let loop: EventLoop
        var changes = 0
        /// The names being written at the last change.
        var writing: Set<String> = []
        var watch: PhotoFolderWatch?

        init() throws {
            folder = try TestPaths.temporaryDirectory("watch")
            loop = try EventLoop()
            watch = PhotoFolderWatch(directory: folder, loop: loop, logger: Logger(label: "test")) { [unowned self] in
                self.changes += 1
                self.writing = $0
            }
        }

        deinit {
            watch?.close()
            loop.close()
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// Runs the loop until a change is reported (the watch waits 200 ms for a burst to end).
        func nextChange(within seconds: Double = 5) throws -> Bool {
            let before = changes
            let deadline = Date().addingTimeInterval(seconds)
            while changes == before, Date() < deadline { try loop.runOnce(timeout: 0.1) }
            return changes > before
        }

        /// Runs the loop for a while and says whether anything was reported.
        func quiet(for seconds: Double) throws -> Bool {
            let before = changes
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline { try loop.runOnce(timeout: 0.05) }
            return changes == before
        }
    }

    static let photo = TestPaths.samplePhotos + "/01-lakeside.jpg"

    @Test func copyingRenamingReplacingAndDeletingEachUpdateTheGrid() throws {
        let w = try Watched()
        #expect(w.watch != nil)
        // Copied in.
        try FileManager.default.copyItem(atPath: Self.photo, toPath: w.folder + "/a.jpg")
        #expect(try w.nextChange())
        // Renamed in from elsewhere (how a careful upload lands).
        let outside = try TestPaths.temporaryDirectory("outside")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.copyItem(atPath: Self.photo, toPath: outside + "/b.jpg")
        try FileManager.default.moveItem(atPath: outside + "/b.jpg", toPath: w.folder + "/b.jpg")
        #expect(try w.nextChange())
        // Replaced in place.
        try Data(contentsOf: URL(fileURLWithPath: TestPaths.samplePhotos + "/02-portrait.jpg"))
            .write(to: URL(fileURLWithPath: w.folder + "/a.jpg"))
        #expect(try w.nextChange())
        // Renamed out.
        try FileManager.default.moveItem(atPath: w.folder + "/b.jpg", toPath: outside + "/b.jpg")
        #expect(try w.nextChange())
        // Deleted.
        try FileManager.default.removeItem(atPath: w.folder + "/a.jpg")
        #expect(try w.nextChange())
    }

    /// A listed photo written again under its own name, as rclone 1.60 syncs a changed photo:
    /// open with O_TRUNC, write, close, then set the source's time. Its first write starts a rescan
    /// that leaves it out (the listed version is gone); the close brings it back; a new time alone
    /// is a change too (the listed version is no longer the file).
    @Test func aListedPhotoWrittenAgainLeavesTheLibraryUntilItIsClosed() throws {
        let w = try Watched()
        let path = w.folder + "/a.jpg"
        try FileManager.default.copyItem(atPath: Self.photo, toPath: path)
        #expect(try w.nextChange())
        #expect(w.writing == [])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.samplePhotos + "/02-portrait.jpg")))
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, bytes.count / 2) }
        #expect(try w.nextChange(), "its rewrite began: the version listed is gone")
        #expect(w.writing == ["a.jpg"])
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + bytes.count / 2, bytes.count - bytes.count / 2) }
        #expect(try w.quiet(for: 0.5), "written on: nothing new until it is closed")
        close(fd)
        #expect(try w.nextChange())
        #expect(w.writing == [])
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(try w.nextChange(), "the source's time set after the close")
    }

    @Test func aFileStillBeingWrittenIsNotTakenUntilItIsClosed() throws {
        let w = try Watched()
        let path = w.folder + "/slow.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.photo))
        // Opened once and written in two halves, as `cp` of a large file over a slow link does.
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        handle.write(bytes.prefix(bytes.count / 2))
        // Half a photo sits there, open: nothing to show yet.
        #expect(try w.quiet(for: 0.5))
        handle.write(bytes.suffix(from: bytes.count / 2))
        try handle.close()
        #expect(try w.nextChange())
    }

    @Test func aBurstOfFilesIsOneRescan() throws {
        let w = try Watched()
        for i in 0..<10 {
            try FileManager.default.copyItem(atPath: Self.photo, toPath: w.folder + "/p\(i).jpg")
        }
        #expect(try w.nextChange())
        #expect(try w.quiet(for: 0.5))
        #expect(w.changes == 1)
    }
}
