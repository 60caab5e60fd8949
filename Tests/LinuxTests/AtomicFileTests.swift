import Foundation
import Glibc
import SystemPackage
import TestSupport
import Testing
@testable import Linux

/// The one writer: a regular file is replaced whole, anything else written in place.
@Suite struct AtomicFileTests {
    @Test func aRegularFileIsReplacedAndNoTemporaryStays() throws {
        let folder = try TemporaryDirectory("atomic")
        defer { folder.remove() }
        let path = folder.file("shot.png")
        try AtomicFile.write([1, 2, 3], to: path)
        var before = stat()
        #expect(stat(path, &before) == 0)
        try AtomicFile.write([4, 5], to: path)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(try readBytes(path) == [4, 5])
        #expect(before.st_ino != after.st_ino, "replaced by rename, not rewritten")
        #expect(try entries(of: folder) == ["shot.png"])
    }

    @Test func aStreamIsInvisibleUntilCommittedAndDiscardLeavesTheOldFile() throws {
        let folder = try TemporaryDirectory("stream")
        defer { folder.remove() }
        let path = folder.file("trace.jsonl")
        try writeBytes(Array("old\n".utf8), to: path)
        let file = try AtomicFile(path: path)
        #expect(!file.writesInPlace)
        try file.write(Array("new\n".utf8))
        #expect(try readBytes(path) == Array("old\n".utf8))
        #expect(try entries(of: folder).count == 2)
        #expect(try entries(of: folder).filter { AtomicFile.isTemporary(name: $0) }.count == 1)
        file.discard()
        #expect(try readBytes(path) == Array("old\n".utf8))
        #expect(try entries(of: folder) == ["trace.jsonl"])
    }

    @Test func aFailedRenameRemovesTheTemporaryAndNamesTheTarget() throws {
        let folder = try TemporaryDirectory("rename")
        defer { folder.remove() }
        let path = folder.file("shot.png")
        let file = try AtomicFile(path: path)
        try file.write([1, 2, 3])
        // A folder appears where the file was to go: rename(2) cannot put a file over it.
        #expect(mkdir(path, 0o755) == 0)
        let error = try #require(throws: SystemError.self) { try file.commit() }
        #expect(error.call == "rename")
        #expect(error.path == path)
        #expect(error.errno == .isDirectory)
        #expect(try entries(of: folder) == ["shot.png"])
        #expect(fileMode(path) == S_IFDIR)
    }

    @Test func aFolderThatCannotHoldFilesIsAnErrorNamingTheTarget() {
        let path = "/proc/self/vitrine-snapshot.png"
        let error = #expect(throws: SystemError.self) { try AtomicFile.write([1], to: path) }
        #expect(error?.path == path)
        #expect(error?.call == "open")
        #expect(fileMode(path) == nil)
    }

    @Test func aFullDeviceFailsWithENOSPCAndStaysADevice() throws {
        #expect(fileMode("/dev/full") == S_IFCHR)
        let error = #expect(throws: SystemError.self) { try AtomicFile.write([UInt8](repeating: 1, count: 100), to: "/dev/full") }
        #expect(error == SystemError("write", path: "/dev/full", errno: .noSpace))
        #expect(error?.description == "write /dev/full: No space left on device (ENOSPC)")
        #expect(fileMode("/dev/full") == S_IFCHR)
        let names = try FileManager.default.contentsOfDirectory(atPath: "/dev")
        #expect(!names.contains { AtomicFile.isTemporary(name: $0) })
    }

    @Test func aFIFOIsWrittenInPlaceNeverReplaced() throws {
        let folder = try TemporaryDirectory("fifo-out")
        defer { folder.remove() }
        let path = folder.file("trace.jsonl")
        #expect(mkfifo(path, 0o600) == 0)
        // The reader (`| jq`): opens the FIFO, which waits for the writer, and reads to the end.
        let reader = Background { () -> [UInt8] in
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk.prefix(n) }
            return bytes
        }
        let lines = (0..<2000).flatMap { Array("{\"t\": \($0)}\n".utf8) }
        let file = try AtomicFile(path: path)
        #expect(file.writesInPlace)
        try file.write(lines)
        try file.commit()
        #expect(reader.wait(seconds: 10) == lines)
        #expect(fileMode(path) == S_IFIFO)
        #expect(try entries(of: folder) == ["trace.jsonl"])
    }

    @Test func aSymbolicLinkIsWrittenThroughNotReplaced() throws {
        // As /dev/stdout is a link to /proc/self/fd/1.
        let folder = try TemporaryDirectory("link-out")
        defer { folder.remove() }
        try writeBytes([9, 9, 9, 9], to: folder.file("real.jsonl"))
        #expect(symlink(folder.file("real.jsonl"), folder.file("stdout")) == 0)
        try AtomicFile.write([1, 2], to: folder.file("stdout"))
        var info = stat()
        #expect(lstat(folder.file("stdout"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(try readBytes(folder.file("real.jsonl")) == [1, 2])
    }
}
