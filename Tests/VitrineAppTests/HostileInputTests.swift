import Blitter
import Foundation
import Linux
import Photos
import TestSupport
import Testing

/// SPEC §4-§6 as a careless or hostile kiosk meets them, through the real `vitrine`: bounded sizes,
/// writes that may fail, bounded input, names and text (issue #12).
@Suite(.serialized) struct HostileInputTests {
    /// A folder with one sample photo and whatever `setUp` adds.
    static func photoFolder(_ name: String, _ setUp: (TemporaryDirectory) throws -> Void = { _ in }) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(name)
        try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/01-lakeside.jpg", toPath: folder.file("01-lakeside.jpg"))
        try setUp(folder)
        return folder
    }

    static func writeJPEG(width: Int, height: Int, to path: String) throws {
        let bytes = try JPEGEncoder().encode(Bitmap(width: width, height: height), quality: 50)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// `vitrine` through bash, so that its stderr can be /dev/full, closed, or a pipe whose reader
    /// has gone (`broken pipe`: stdout stays the captured one, the status is vitrine's).
    static func shell(_ arguments: [String], stderr redirection: String) throws -> ProcessResult {
        let script = redirection == "broken pipe"
            ? "exec 3>&1; set -o pipefail; { sleep 0.3; exec \"$0\" \"$@\" 2>&1 >&3 3>&-; } | true"
            : "exec \"$0\" \"$@\" \(redirection)"
        return try ProcessResult.run(["-c", script, TestPaths.executable] + arguments, executable: "/bin/bash")
    }

    // MARK: Sizes from a file are bounded

    /// A 65500x1 JPEG is 0.07 MP: its aspect-fill thumbnail used to ask for 20960000x320 pixels
    /// (26 GB) and abort the process. It is a thin line now, in the grid and in the pager.
    @Test func aStripPhotoIsAThinLineNotGigabytes() throws {
        let folder = try Self.photoFolder("strip") { folder in
            try Self.writeJPEG(width: 65500, height: 1, to: folder.file("02-strip.jpg"))
            try Self.writeJPEG(width: 1, height: 65500, to: folder.file("03-column.jpg"))
        }
        defer { folder.remove() }
        let out = folder.file("out")
        let result = try ProcessResult.run(["simulate", "--size", "1280x720", "--photos", folder.path,
                                            "--snapshot", "1", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("snapshot-1.000.png"))
    }

    @Test func aFileLargerThanMaxFileMegabytesIsSkippedWithOneWarning() throws {
        let folder = try Self.photoFolder("large") { folder in
            var bytes = try JPEGEncoder().encode(Bitmap(width: 64, height: 64))
            bytes += [UInt8](repeating: 0, count: 2 << 20)  // past EOI: a valid JPEG of 2 MB
            try Data(bytes).write(to: URL(fileURLWithPath: folder.file("02-large.jpg")))
            try "[photos]\nmax_file_megabytes = 1\n".write(toFile: folder.file("vitrine.toml"), atomically: true, encoding: .utf8)
        }
        defer { folder.remove() }
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--config", folder.file("vitrine.toml"),
                                            "--photos", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("02-large.jpg") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("above photos.max_file_megabytes = 1") == true, "\(result.stderr)")
    }

    // MARK: A write that fails never crashes

    @Test(arguments: ["2>/dev/full", "2>&-", "broken pipe"])
    func aFullOrClosedStderrDropsLogLinesAndTheRunGoesOn(redirection: String) throws {
        let folder = try Self.photoFolder("stderr") { folder in
            try "not a photo".write(toFile: folder.file("02-bad.jpg"), atomically: true, encoding: .utf8)
        }
        defer { folder.remove() }
        let result = try Self.shell(["simulate", "--size", "320x240", "--photos", folder.path, "--snapshot", "0.5",
                                     "--out", folder.file("out")], stderr: redirection)
        #expect(result.status == 0)
        #expect(result.stdout.contains("snapshot-0.500.png"))
    }

    @Test func aTraceOnAFullDiskIsAnErrorNamingTheFile() throws {
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                            "--duration", "1", "--trace", "/dev/full"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/dev/full"), "\(result.stderr)")
    }

    // MARK: Input is bounded

    @Test(arguments: [["--snapshot", "1e9"], ["--snapshot", "3600.5"], ["--snapshot", "2,5", "--duration", "3"]])
    func snapshotsAfterTheEndAreAnError(arguments: [String]) throws {
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("after the end of the simulation"), "\(result.stderr)")
    }

    @Test func aRecordingPastAnHourIsAnError() throws {
        let folder = try TemporaryDirectory("gap")
        defer { folder.remove() }
        var text = try String(contentsOfFile: TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"), encoding: .utf8)
        text += "E: 99999999.000000 0000 0000 0000\n"
        try text.write(toFile: folder.file("gap.evemu"), atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                            "--replay", folder.file("gap.evemu")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("at most at 3600 s"), "\(result.stderr)")
    }

    /// The same recording with CRLF line ends replays exactly as with LF.
    @Test func aCRLFRecordingReplaysLikeItsLFOriginal() throws {
        let folder = try TemporaryDirectory("crlf")
        defer { folder.remove() }
        let name = "atmel_maxtouch.1-finger-fast-taps.evemu"
        let text = try String(contentsOfFile: TestPaths.recording(name), encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: folder.file("crlf.evemu"), atomically: true, encoding: .utf8)
        var traces: [String] = []
        for recording in [TestPaths.recording(name), folder.file("crlf.evemu")] {
            let trace = folder.file("trace-\(traces.count).jsonl")
            let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                                "--replay", recording, "--trace", trace, "--duration", "3"])
            #expect(result.status == 0, "\(result.stderr)")
            traces.append(try String(contentsOfFile: trace, encoding: .utf8))
        }
        #expect(traces[0] == traces[1])
        #expect(traces[0].contains("\"pager\"") || traces[0].contains("\"opening\""))
    }

    @Test func outOfOrderTimestampsGiveOneWarning() throws {
        let folder = try TemporaryDirectory("order")
        defer { folder.remove() }
        let text = try String(contentsOfFile: TestPaths.recording("atmel_maxtouch.1-finger-fast-taps.evemu"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let events = lines.indices.filter { lines[$0].hasPrefix("E: ") }
        // Two events late in the file stamped at the recording's start.
        let start = lines[events[0]].split(separator: " ")[1]
        for index in [events[events.count / 2], events[events.count / 2 + 5]] {
            var fields = lines[index].split(separator: " ").map(String.init)
            fields[1] = String(start)
            lines[index] = fields.joined(separator: " ")
        }
        try lines.joined(separator: "\n").write(toFile: folder.file("order.evemu"), atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", TestPaths.samplePhotos,
                                            "--replay", folder.file("order.evemu")])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("stamped earlier") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("2 events") == true)
    }

    // MARK: Names and text

    /// A name with a newline and escape codes stays on its line, its control characters as \xNN.
    @Test func aFileNameCannotForgeALogLine() throws {
        let name = "02-bad\nvitrine[critical]: forged\u{1B}[31m.jpg"
        let folder = try Self.photoFolder("forge") { folder in
            try "not a photo".write(toFile: folder.file(name), atomically: true, encoding: .utf8)
        }
        defer { folder.remove() }
        let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("vitrine[critical]") })
        #expect(result.stderr.contains("02-bad\\x0Avitrine[critical]: forged\\x1B[31m.jpg"), "\(result.stderr)")
    }

    @Test func aNULEscapeInAConfigStringIsAnErrorNamingTheKey() throws {
        let folder = try TemporaryDirectory("nul")
        defer { folder.remove() }
        try "[photos]\ndirectory = \"/srv/photos\\u0000/etc\"\n".write(toFile: folder.file("vitrine.toml"), atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["check-config", folder.file("vitrine.toml")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("vitrine.toml:2"), "\(result.stderr)")
        #expect(result.stderr.contains("`photos.directory` contains a NUL character"), "\(result.stderr)")
    }

    @Test func aPhotoFolderThatIsNotAFolderSaysWhatItIs() throws {
        let folder = try Self.photoFolder("notfolder")
        defer { folder.remove() }
        for (path, kind) in [("/dev/null", "a character device"), (folder.file("01-lakeside.jpg"), "a regular file"),
                             (folder.file("missing"), "No such file or directory")] {
            let result = try ProcessResult.run(["simulate", "--size", "320x240", "--photos", path])
            #expect(result.status != 0)
            #expect(result.stderr.contains("cannot read the photo folder \(path)"), "\(result.stderr)")
            #expect(result.stderr.contains(kind), "\(result.stderr)")
        }
    }

    /// A folder the service's user may not read says so (EACCES), not "No such file". The tests run
    /// as root, which may read anything: the run is as nobody, through setpriv.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aPhotoFolderThatMayNotBeReadSaysPermissionDenied() throws {
        let folder = try Self.photoFolder("unreadable")
        defer { chmod(folder.path, 0o755); folder.remove() }
        try #require(chmod(folder.path, 0o000) == 0)
        let result = try ProcessResult.run(["--reuid=65534", "--regid=65534", "--clear-groups", TestPaths.executable,
                                            "simulate", "--size", "320x240", "--photos", folder.path],
                                           executable: "/usr/bin/setpriv")
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read the photo folder \(folder.path)"), "\(result.stderr)")
        #expect(result.stderr.contains("Permission denied"), "\(result.stderr)")
    }

    /// File names are bytes: a name that is not UTF-8 is listed, read and decoded like any other.
    @Test func aPhotoWhoseNameIsNotUTF8IsShown() throws {
        let folder = try Self.photoFolder("bytes")
        defer { folder.remove() }
        let name = FileName.string([0x63, 0x61, 0x66, 0xE9, 0xFF] + Array(".jpg".utf8))
        let path = folder.file(name)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("01-lakeside.jpg")))
        let fd = FileName.withPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let library = try PhotoLibrary(scanning: folder.path, logger: LogRecorder().logger)
        #expect(library.rejects.isEmpty, "\(library.rejects)")
        #expect(library.items.map(\.name).sorted() == ["01-lakeside.jpg", name])
        let decoded = try JPEGDecoder().decode(path: path, to: ImageSize(width: 64, height: 48))
        #expect(decoded.bitmap.width == 64)
        #expect(LogLine.escaped(name) == "caf\\xE9\\xFF.jpg")
    }
}
