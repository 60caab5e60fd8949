import Foundation
import Glibc
import Linux
@testable import Photos
import TestSupport
import Testing

/// A decode reads only the version of a file the library scan listed (`FileVersion`): a photo
/// written again under its own name (rclone 1.60, `cp`, `rsync --inplace`) is half the new photo
/// until its writer closes it, and a decode of it would show half a picture.
@Suite struct FileVersionTests {
    static let target = ImageSize(width: 64, height: 48)

    /// A copy of a sample photo in a folder of its own, its scan, and a decoder.
    struct Listed {
        let folder: String
        let path: String
        let info: PhotoInfo
        let decoder: PhotoDecoder

        init() throws {
            folder = try TestPaths.temporaryDirectory("version")
            path = folder + "/a.jpg"
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/01-lakeside.jpg", toPath: path)
            decoder = try PhotoDecoder()
            info = try decoder.info(path: path)
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }

        /// The file truncated and half of another photo written, as a writer in place leaves it
        /// on the way.
        func halfRewritten() throws {
            let other = try RegularFile.read(TestPaths.samplePhotos + "/02-portrait.jpg", limit: 1 << 24)
            try Data(other.prefix(other.count / 2)).write(to: URL(fileURLWithPath: path))
        }
    }

    static func changedReason(_ body: () throws -> Void) -> PhotoError.Reason? {
        do {
            try body()
        } catch let error as PhotoError {
            return error.reason
        } catch {}
        return nil
    }

    @Test func theListedVersionDecodesAndAHalfRewrittenFileIsRefusedUnread() throws {
        let listed = try Listed()
        defer { listed.remove() }
        let (whole, _) = try listed.decoder.decode(path: listed.path, to: Self.target, version: listed.info.version)
        #expect(whole.warning == nil)
        try listed.halfRewritten()
        // Without the version it is decoded as it is now: damaged, half a picture.
        let (half, _) = try listed.decoder.decode(path: listed.path, to: Self.target)
        #expect(half.warning != nil, "a half-written JPEG decodes with TurboJPEG's warning")
        // With it, refused before a byte is read, with both versions told.
        let reason = Self.changedReason { _ = try listed.decoder.decode(path: listed.path, to: Self.target, version: listed.info.version) }
        guard case let .changed(since, now) = reason else {
            Issue.record("not refused as changed: \(String(describing: reason))")
            return
        }
        #expect(since == listed.info.version)
        #expect(now.size != since.size)
        #expect(reason?.label == "changed")
    }

    /// rclone sets the source's time after the close, and alone when only the time changed at the
    /// source: another time is another version, whatever the size.
    @Test func aNewModificationTimeAloneIsAnotherVersion() throws {
        let listed = try Listed()
        defer { listed.remove() }
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, listed.path, &times, 0) == 0)
        let reason = Self.changedReason { _ = try listed.decoder.decode(path: listed.path, to: Self.target, version: listed.info.version) }
        guard case let .changed(since, now) = reason else {
            Issue.record("not refused as changed: \(String(describing: reason))")
            return
        }
        #expect(since.size == now.size && since.modified != now.modified)
        // The rescan's new info is that version, and decodes.
        let again = try listed.decoder.info(path: listed.path)
        #expect(try listed.decoder.decode(path: listed.path, to: Self.target, version: again.version).image.warning == nil)
    }

    /// The decode queue: a key of the listed version whose file was rewritten since is neither
    /// decoded nor logged as a bad photo (the watch's rescan brings the new version), and the
    /// thumbnail disk cache does not stand in for it either.
    @Test func theQueueRefusesAStaleVersionQuietlyAndTakesTheNextScansVersion() throws {
        let listed = try Listed()
        defer { listed.remove() }
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        let disk = try ThumbnailDiskCache(directory: listed.folder + "/thumbnails", logger: log.logger)
        let cache = ImageCache(megabytes: 64)
        let queue = DecodeQueue(cache: cache, diskCache: disk, workers: 1, logger: log.logger) { _, _ in done.signal() }
        defer { queue.stop() }
        try listed.halfRewritten()
        let stale = ImageKey(photo: listed.info, size: Self.target, kind: .thumbnail)
        queue.want([stale])
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(!cache.contains(stale))
        #expect(queue.failure(for: listed.path)?.reason.label == "changed")
        #expect(!log.messages.contains { $0.text.contains("Skipping") || $0.text.contains("damaged") }, "\(log.messages)")
        // The writer is done: the rescan lists the new version, the old one is forgotten.
        try FileManager.default.removeItem(atPath: listed.path)
        try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/02-portrait.jpg", toPath: listed.path)
        let rescanned = try listed.decoder.info(path: listed.path)
        queue.forget(path: listed.path)
        let current = ImageKey(photo: rescanned, size: Self.target, kind: .thumbnail)
        queue.want([current])
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(cache.contains(current))
        #expect(log.messages.isEmpty, "\(log.messages)")
    }
}
