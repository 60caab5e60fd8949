import Foundation
import Glibc
import Linux
import Photos
import TestSupport
import Testing
@testable import VitrineApp

/// The recipe of systemd/vitrine-rclone.service with the real rclone (Debian's 1.60): a WebDAV
/// share (`rclone serve webdav` on the loopback) mirrored by `rclone sync` into the folder of a
/// running kiosk (`ContentSyncTests.Kiosk`: the watch and the library wired as `run` wires them).
///
/// rclone 1.60 writes a local file in place, under its own name: open with O_TRUNC, fallocate,
/// write, close, then set the source's time (utimensat); a changed photo is written again the
/// same way, a transfer that fails is closed and then removed. No temporary name (rclone 1.63 and
/// later write `NAME.XXXXXX.partial` and rename it, which `PhotoLibrary.isPartialName` covers).
@Suite(.serialized) struct RcloneSyncTests {
    /// The share: a folder served over WebDAV on a free loopback port, and the rclone config
    /// naming it `photos` as /etc/vitrine/rclone.conf does.
    final class WebDAVShare {
        let rclone: String
        let work: TemporaryDirectory
        let folder: String
        let config: String
        let port: Int
        var server: Process?

        init(_ rclone: String, photos: [String: [UInt8]]) throws {
            self.rclone = rclone
            work = try TemporaryDirectory("rclone")
            folder = work.file("share")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, bytes) in photos { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
            port = try ContentSyncTests.freePort()
            config = work.file("rclone.conf")
            try """
                [photos]
                type = webdav
                url = http://127.0.0.1:\(port)/
                vendor = other

                """.write(toFile: config, atomically: true, encoding: .utf8)
            try start()
        }

        deinit {
            stop()
            work.remove()
        }

        func start() throws {
            let server = try ContentSyncTests.start(rclone, ["serve", "webdav", "--addr", "127.0.0.1:\(port)", folder],
                                                    log: work.file("serve.log"))
            self.server = server
            let deadline = Date().addingTimeInterval(10)
            while !Self.accepts(port) {
                guard Date() < deadline, server.isRunning else {
                    throw AppError("rclone serve webdav did not listen: \((try? String(contentsOfFile: work.file("serve.log"), encoding: .utf8)) ?? "")")
                }
                usleep(50_000)
            }
        }

        func stop() {
            guard let server, server.isRunning else { return }
            server.terminate()
            server.waitUntilExit()
        }

        static func accepts(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }

        /// rclone with this share's config; output in `log`.
        func rcloneRun(_ arguments: [String], log: String) throws -> Process {
            try ContentSyncTests.start(rclone, arguments + ["--config", config], log: work.file(log))
        }

        /// The sync of the unit's ExecStart into `destination` (its options that matter here),
        /// slowed so that the kiosk rescans while photos are on their way.
        func sync(into destination: String, bandwidth: String? = nil, log: String) throws -> Process {
            try rcloneRun(["sync", "photos:", destination, "--ignore-case", "--max-depth", "1", "--filter", "- .*",
                           "--filter", "+ *.{jpg,jpeg,heic,heif,avif,webp,png,mp4,mov,m4v,mkv,webm}", "--filter", "- *",
                           "--max-delete", "500", "--transfers", "2", "--contimeout", "2s", "--timeout", "10s",
                           "--retries", "1", "--low-level-retries", "1", "-v"]
                          + (bandwidth.map { ["--bwlimit", $0] } ?? []), log: log)
        }

        /// Changes the share through its server, as a NAS's own clients do.
        func change(_ arguments: [String]) throws {
            let run = try rcloneRun(arguments, log: "change.log")
            run.waitUntilExit()
            #expect(run.terminationStatus == 0, "rclone \(arguments)")
        }

        func text(_ log: String) -> String { (try? String(contentsOfFile: work.file(log), encoding: .utf8)) ?? "" }
    }

    static func listing(_ folder: String) -> Set<String> {
        Set(((try? FileName.list(folder)) ?? []).map(\.name))
    }

    /// The issue's list: a sync while the kiosk shows the folder adds only whole photos, a photo
    /// deleted at the source leaves, and with the source down the sync fails and the kiosk keeps
    /// the last synced set (offline first).
    @Test func aWebDAVShareMirroredWhileTheKioskRunsShowsWholePhotosFollowsDeletionsAndSurvivesTheSourceDown() throws {
        guard let rclone = ContentSyncTests.tool("rclone") else { return }
        let photos = try ContentSyncTests.samplePhotos()
        let share = try WebDAVShare(rclone, photos: photos)
        let kiosk = try ContentSyncTests.Kiosk(expecting: photos)
        // 5.1 MB at 1 MB/s: photos land one after another while the kiosk runs.
        let first = try share.sync(into: kiosk.folder.path, bandwidth: "1M", log: "first.log")
        let arrived = try kiosk.run(for: 90) { !first.isRunning && kiosk.latest == Set(photos.keys) }
        #expect(first.terminationStatus == 0, "\(share.text("first.log"))")
        #expect(arrived, "the library shows \(kiosk.latest.sorted()), not the \(photos.count) photos of the share")
        #expect(kiosk.halfShown == [], "shown before complete")
        #expect(kiosk.shown.count >= 3, "\(kiosk.shown.count) rescans")
        #expect(Set(kiosk.shown.map(\.count)).count >= 3, "the photos arrived one after another: \(kiosk.shown.map(\.count))")

        // Deleted at the source: gone from the folder and the library after the next sync.
        let deleted: Set = ["03-dragonfly.jpg", "11-sunset-sun.jpg"]
        for name in deleted { try share.change(["deletefile", "photos:" + name]) }
        let second = try share.sync(into: kiosk.folder.path, log: "second.log")
        let left = try kiosk.run(for: 30) { !second.isRunning && kiosk.latest == Set(photos.keys).subtracting(deleted) }
        #expect(second.terminationStatus == 0, "\(share.text("second.log"))")
        #expect(left, "the library shows \(kiosk.latest.sorted())")
        #expect(Self.listing(kiosk.folder.path) == Set(photos.keys).subtracting(deleted))

        // The source down: the sync fails, deletes nothing, and the kiosk shows the last set.
        share.stop()
        let rescans = kiosk.shown.count
        let third = try share.sync(into: kiosk.folder.path, log: "third.log")
        _ = try kiosk.run(for: 60) { !third.isRunning }
        _ = try kiosk.run(for: 1) { false }
        #expect(!third.isRunning)
        #expect(third.terminationStatus != 0, "\(share.text("third.log"))")
        #expect(Self.listing(kiosk.folder.path) == Set(photos.keys).subtracting(deleted))
        #expect(kiosk.shown.count == rescans, "the folder did not change: no rescan")
        #expect(kiosk.latest == Set(photos.keys).subtracting(deleted))
        #expect(kiosk.halfShown == [])
    }

    /// A photo changed at the source is written again in place, under the name the kiosk lists.
    /// While it is, the library leaves it out (the watch's rescan at its first write) and no
    /// decode of the listed version reads it (`FileVersion`): the kiosk decodes the changed
    /// photos all the time and never gets half a picture.
    @Test func aPhotoChangedAtTheSourceIsNeverDecodedHalfWritten() throws {
        guard let rclone = ContentSyncTests.tool("rclone") else { return }
        let photos = try ContentSyncTests.samplePhotos()
        let share = try WebDAVShare(rclone, photos: photos)
        let kiosk = try ContentSyncTests.Kiosk(expecting: photos)
        let first = try share.sync(into: kiosk.folder.path, log: "first.log")
        #expect(try kiosk.run(for: 60) { !first.isRunning && kiosk.latest == Set(photos.keys) }, "\(share.text("first.log"))")

        // Four photos get other pictures at the source (other sizes, a newer time).
        let changes = ["01-lakeside.jpg": "05-sunset-panorama.jpg", "02-portrait.jpg": "03-dragonfly.jpg",
                       "04-flower.jpg": "08-dragonfly-wing.jpg", "06-lakeside-exif6.jpg": "10-flower-bloom.jpg"]
        for (name, other) in changes {
            try share.change(["copyto", TestPaths.samplePhotos + "/" + other, "photos:" + name])
            kiosk.earlier[name] = photos[name]
            kiosk.expected[name] = photos[other]
        }
        let decoder = try PhotoDecoder()
        let changedNames = changes.keys.sorted()
        var turn = 0, decoded = 0, refused = 0, halfWithoutVersion = 0, damaged: [String] = []
        /// What the kiosk's decode workers do with the library it lists now: one changed photo
        /// per turn of the loop (a decode in a debug build is slow; the watch must keep up).
        func decodeAChangedPhoto() {
            turn += 1
            guard let item = kiosk.content.items.first(where: { $0.picture.name == changedNames[turn % changedNames.count] }) else { return }
            let target = ImageSize(width: 64, height: 48)
            do {
                let (image, _) = try decoder.decode(path: item.picture.path, to: target, version: item.picture.version)
                if let warning = image.warning { damaged.append("\(item.picture.name): \(warning)") }
                decoded += 1
            } catch let error as PhotoError {
                guard case .changed = error.reason else { return damaged.append("\(error)") }
                refused += 1
                // What a decode without the version would have drawn at that moment.
                if (try? decoder.decode(path: item.picture.path, to: target))?.image.warning != nil { halfWithoutVersion += 1 }
            } catch {
                damaged.append("\(error)")
            }
        }
        // 2.4 MB at 400 kB/s: the dragonfly's rewrite alone takes seconds.
        let second = try share.sync(into: kiosk.folder.path, bandwidth: "400k", log: "second.log")
        let done = try kiosk.run(for: 90) {
            decodeAChangedPhoto()
            return !second.isRunning && kiosk.latest == Set(photos.keys)
                && kiosk.content.items.allSatisfy { (try? decoder.info(path: $0.picture.path))?.version == $0.picture.version }
        }
        _ = try kiosk.run(for: 1) { false }
        for _ in changedNames { decodeAChangedPhoto() }
        #expect(second.terminationStatus == 0, "\(share.text("second.log"))")
        #expect(done, "the library shows \(kiosk.latest.sorted())")
        #expect(damaged == [], "decoded half-written")
        #expect(kiosk.halfShown == [], "shown before complete")
        // The photos being written left the library meanwhile, and came back changed.
        #expect(kiosk.shown.contains { !Set(changes.keys).isSubset(of: $0) }, "\(kiosk.shown)")
        for (name, other) in changes {
            #expect(try RegularFile.read(kiosk.folder.file(name), limit: 1 << 24) == photos[other], "\(name)")
            #expect(kiosk.content.items.first { $0.picture.name == name }?.picture.fileSize == photos[other]?.count)
        }
        #expect(decoded > 0)
        print("[rclone] rewrites in place: \(decoded) decodes of the listed versions, \(refused) refused as changed "
              + "(\(halfWithoutVersion) of them half a picture without the version), \(kiosk.shown.count) rescans, "
              + "\(kiosk.changedSinceScan) listed photos written again before the check")
    }
}
