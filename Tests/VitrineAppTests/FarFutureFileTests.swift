import Blitter
import Foundation
import Linux
import Logging
import Photos
import RemoteHTTP
import TestSupport
import Testing
import Touch
@testable import VitrineApp

/// Every kind of file Vitrine reads, dated 2300 (after 2262-04-11, where nanoseconds since the
/// epoch leave 64 bits) and with extreme sizes and counts, through the real code paths and the
/// real `vitrine` (issue #22: any such file killed the process with SIGILL and nothing on stderr).
@Suite(.serialized) struct FarFutureFileTests {
    /// A folder with three sample photos, a caption sidecar, a config with a drop-in and a touch
    /// recording, all dated 2300.
    static func farFutureFolder(_ name: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(name)
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for photo in ["01-lakeside.jpg", "06-lakeside-exif6.jpg", "02-portrait.jpg"] {
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/" + photo, toPath: photos + "/" + photo)
        }
        try "A caption from the year 2300\n".write(toFile: photos + "/01-lakeside.txt", atomically: true, encoding: .utf8)
        let config = folder.file("vitrine.toml")
        try "[photos]\ndirectory = \"\(photos)\"\n[captions]\nshow = true\ndate = true\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: config + ".d", withIntermediateDirectories: true)
        try "[grid]\ncolumns = 3\n".write(toFile: config + ".d/50-kiosk.toml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"),
                                         toPath: folder.file("taps.evemu"))
        try "s3cret\n".write(toFile: folder.file("token"), atomically: true, encoding: .utf8)
        try FarFutureFiles.dateEverything(under: folder.path)
        #expect(FarFutureFiles.modifiedSeconds(photos + "/01-lakeside.jpg") == FarFutureFiles.year2300)
        return folder
    }

    /// `check-config` and `simulate` (config, drop-in, photos, sidecar, recording) work as they do
    /// for files of today.
    @Test func theRealVitrineReadsAFolderDated2300() throws {
        let folder = try Self.farFutureFolder("future-cli")
        defer { folder.remove() }
        let config = folder.file("vitrine.toml")
        let check = try ProcessResult.run(["check-config", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("columns = 3  # \(config).d/50-kiosk.toml:2"))

        let trace = folder.file("trace.jsonl")
        let simulate = try ProcessResult.run(["simulate", "--config", config, "--size", "640x400",
                                              "--replay", folder.file("taps.evemu"), "--trace", trace,
                                              "--snapshot", "0.2", "--out", folder.path])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 10)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(written.contains { $0.hasSuffix(".png") }, "the snapshot: \(written)")
    }

    /// The library's scan, decode and caption (sidecar) of photos dated 2300, and their date.
    @Test func photosAndSidecarsDated2300AreScannedDecodedAndCaptioned() throws {
        let folder = try Self.farFutureFolder("future-photos")
        defer { folder.remove() }
        let settings = try SettingsFile.load(path: folder.file("vitrine.toml"), mustExist: true)
        let items = try PhotoFolder.scan(settings.photos, logger: Logger(label: "test"))
        #expect(items.count == 3)
        let reading = CaptionReader().read(photoPath: folder.file("photos/01-lakeside.jpg"))
        #expect("\(reading)".contains("A caption from the year 2300"), "\(reading)")
        let images = LibraryImages(items: items, screenSize: ImageSize(width: 320, height: 200), cellSide: 100,
                                   cacheMegabytes: 64, decoding: DecodeOptions(), logger: Logger(label: "test"),
                                   onDecoded: {})
        images.want((0..<items.count).map { ImageRequest.thumbnail($0) })
        images.waitUntilSettled()
        for index in items.indices { #expect(images.thumbnail(index) != nil, "photo \(index)") }
    }

    /// A thumbnail of a photo dated 2300 is stored and found again, a photo dated a second later is
    /// another key (the time is not cut at 2262), and cache files dated 2300 are read and pruned.
    @Test func theThumbnailCacheKeysAndPrunesFilesDated2300() throws {
        let folder = try Self.farFutureFolder("future-cache")
        defer { folder.remove() }
        let cache = try ThumbnailDiskCache(directory: folder.file("cache"), byteLimit: 1 << 20, logger: Logger(label: "test"))
        let photo = folder.file("photos/01-lakeside.jpg")
        let source = try #require(ThumbnailDiskCache.Source(path: photo))
        #expect(source.modified.seconds == Int64(FarFutureFiles.year2300))
        let bitmap = Bitmap(width: 120, height: 90, color: 0x00_33_66_99)
        cache.store(bitmap, for: source)
        #expect(cache.image(for: source, size: ImageSize(width: 120, height: 90)) != nil)

        try FarFutureFiles.setModified(photo, seconds: FarFutureFiles.year2300 + 1)
        let later = try #require(ThumbnailDiskCache.Source(path: photo))
        #expect(ThumbnailDiskCache.fileName(for: later, size: ImageSize(width: 120, height: 90))
                != ThumbnailDiskCache.fileName(for: source, size: ImageSize(width: 120, height: 90)))
        #expect(cache.image(for: later, size: ImageSize(width: 120, height: 90)) == nil)

        try FarFutureFiles.dateEverything(under: folder.file("cache"))
        cache.prune()
        #expect(cache.image(for: source, size: ImageSize(width: 120, height: 90)) != nil)
    }

    /// The touch recording, the remote token file: their readers take the date in their stride.
    @Test func aRecordingAndATokenFileDated2300AreRead() throws {
        let folder = try Self.farFutureFolder("future-misc")
        defer { folder.remove() }
        let recording = try EvemuRecording.load(path: folder.file("taps.evemu"))
        #expect(!recording.events.isEmpty)
        #expect(AccessToken.load(path: folder.file("token")) == .token(Array("s3cret".utf8)))
    }

    /// A file larger than any limit (sparse: a terabyte that takes no space) is refused by size,
    /// with its size in the message, not read and not a trap.
    @Test func aTerabytePhotoAndConfigAreRefusedBySize() throws {
        let folder = try TemporaryDirectory("future-huge")
        defer { folder.remove() }
        let huge = folder.file("huge.jpg")
        #expect(FileManager.default.createFile(atPath: huge, contents: Data([0xFF, 0xD8])))
        #expect(truncate(huge, 1 << 40) == 0)
        try FarFutureFiles.setModified(huge)
        let status = try FileStatus(path: huge)
        #expect(status.size == 1 << 40)
        let config = folder.file("vitrine.toml")
        #expect(FileManager.default.createFile(atPath: config, contents: Data("[grid]\n".utf8)))
        #expect(truncate(config, 1 << 40) == 0)
        let check = try ProcessResult.run(["check-config", config])
        #expect(check.status != 0)
        #expect(check.stderr.contains("1099511627776"), "\(check.stderr)")
        let simulate = try ProcessResult.run(["simulate", "--size", "320x200", "--photos", folder.path, "--duration", "0.5"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
    }

    /// Each of the six kinds at the ends of its size, dated 2300 (issue #22): an empty photo,
    /// config, drop-in, sidecar, recording and token; a terabyte sidecar (sparse); 2,000 drop-ins.
    /// Each is read or refused with a clear reason, none traps.
    @Test func emptyHugeAndManyFilesOfEveryKindDated2300() throws {
        let folder = try Self.farFutureFolder("future-extremes")
        defer { folder.remove() }
        let photos = folder.file("photos")
        // Photo: an empty one beside the good ones; sidecars: one empty, one of a terabyte.
        #expect(FileManager.default.createFile(atPath: photos + "/00-empty.jpg", contents: Data()))
        #expect(FileManager.default.createFile(atPath: photos + "/02-portrait.txt", contents: Data()))
        let hugeSidecar = photos + "/06-lakeside-exif6.txt"
        #expect(FileManager.default.createFile(atPath: hugeSidecar, contents: Data("A".utf8)))
        #expect(truncate(hugeSidecar, 1 << 40) == 0)
        // Config: 2,000 drop-ins after the folder's 50-kiosk.toml and an empty one; the last wins.
        let config = folder.file("vitrine.toml")
        for index in 0..<2000 {
            try "[grid]\ncolumns = \(index % 12 + 1)\n".write(toFile: config + ".d/60-\(String(format: "%04d", index)).toml",
                                                             atomically: false, encoding: .utf8)
        }
        #expect(FileManager.default.createFile(atPath: config + ".d/9999-empty.toml", contents: Data()))
        // Recording and token: empty.
        #expect(FileManager.default.createFile(atPath: folder.file("empty.evemu"), contents: Data()))
        #expect(FileManager.default.createFile(atPath: folder.file("empty-token"), contents: Data()))
        try FarFutureFiles.dateEverything(under: folder.path)

        let settings = try SettingsFile.load(path: config, mustExist: true)
        #expect(settings.scene.grid.columns == 1999 % 12 + 1)
        let library = try PhotoFolder.library(settings.photos, logger: Logger(label: "test"))
        #expect(library.items.count == 3)
        #expect(library.rejects.map(\.reason.label) == ["empty"], "\(library.rejects)")
        let huge = CaptionReader().read(photoPath: photos + "/06-lakeside-exif6.jpg")
        #expect("\(huge)".contains("1099511627776"), "the terabyte sidecar refused by its size: \(huge)")
        let empty = CaptionReader().read(photoPath: photos + "/02-portrait.jpg")
        #expect(empty.warning == nil, "\(empty)")
        let emptyRecording = try EvemuRecording.load(path: folder.file("empty.evemu"))
        #expect(emptyRecording.events.isEmpty && emptyRecording.device.axes.isEmpty)
        if case .token = AccessToken.load(path: folder.file("empty-token")) { Issue.record("an empty token file is no token") }

        // An empty config (dated 2300, all defaults) and the real binary over all of it.
        let emptyConfig = folder.file("empty.toml")
        #expect(FileManager.default.createFile(atPath: emptyConfig, contents: Data()))
        try FarFutureFiles.setModified(emptyConfig)
        let checkEmpty = try ProcessResult.run(["check-config", emptyConfig])
        #expect(checkEmpty.status == 0, "\(checkEmpty.stderr)")
        let check = try ProcessResult.run(["check-config", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("columns = \(1999 % 12 + 1)  # \(config).d/60-1999.toml:2"), "\(check.stdout.suffix(2000))")
        // An empty recording describes no device: said so, an ordinary failure.
        let replay = try ProcessResult.run(["simulate", "--config", config, "--size", "320x200", "--replay", folder.file("empty.evemu")])
        #expect(replay.status == 1 && replay.stderr.contains("has no usable position axes"), "\(replay.stderr)")
        let simulate = try ProcessResult.run(["simulate", "--config", config, "--size", "320x200", "--duration", "0.5"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
    }

    /// A recording whose events span more seconds than Int holds is refused with its length, not
    /// a trap converting it.
    @Test func aRecordingSpanningMoreThanIntSecondsIsRefused() throws {
        let folder = try TemporaryDirectory("future-evemu")
        defer { folder.remove() }
        var text = try String(contentsOfFile: TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"), encoding: .utf8)
        text += "E: 18446744073709551615.999999 0000 0000 0000\n"
        let path = folder.file("long.evemu")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["simulate", "--size", "320x200", "--photos", TestPaths.samplePhotos, "--replay", path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("e+19 s of virtual time"), "\(result.stderr)")
    }
}
