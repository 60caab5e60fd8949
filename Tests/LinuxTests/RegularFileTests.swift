import Foundation
import Glibc
import SystemPackage
import TestSupport
import Testing
@testable import Linux

/// The one safe way to read a file: regular files only, never blocking, bounded.
@Suite struct RegularFileTests {
    @Test func aRegularFileIsReadWholeAndByPrefix() throws {
        let folder = try TemporaryDirectory("regular")
        defer { folder.remove() }
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try writeBytes(bytes, to: folder.file("a.jpg"))
        #expect(try RegularFile.read(folder.file("a.jpg"), limit: 10_000) == bytes)

        let file = try RegularFile(path: folder.file("a.jpg"))
        defer { file.close() }
        #expect(file.size == 10_000)
        #expect(try file.readPrefix(100) == Array(bytes.prefix(100)))
        #expect(try file.readPrefix(20_000) == bytes)
    }

    @Test func aSymbolicLinkToARegularFileIsFine() throws {
        let folder = try TemporaryDirectory("link")
        defer { folder.remove() }
        try writeBytes([1, 2, 3], to: folder.file("target.jpg"))
        #expect(symlink(folder.file("target.jpg"), folder.file("link.jpg")) == 0)
        #expect(try RegularFile.read(folder.file("link.jpg"), limit: 3) == [1, 2, 3])
    }

    @Test func aFIFOIsRefusedWithoutBlockingAndWithoutBeingRead() throws {
        let folder = try TemporaryDirectory("fifo")
        defer { folder.remove() }
        let path = folder.file("photo.jpg")
        #expect(mkfifo(path, 0o600) == 0)
        // Something waits in the FIFO: a read would take it (and an open without a writer would block).
        let writer = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        #expect(writer >= 0)
        defer { close(writer) }
        #expect(write(writer, "abc", 3) == 3)

        let attempt = Background { Result { () throws(SystemError) in try RegularFile.read(path, limit: 1 << 20) } }
        let result = try #require(attempt.wait(seconds: 5), "reading a FIFO blocked")
        #expect(throws: SystemError("open", path: path, reason: .notRegularFile(.fifo))) { try result.get() }
        #expect(SystemError("open", path: path, reason: .notRegularFile(.fifo)).description
                == "open \(path): not a regular file (a FIFO)")
        var left = [UInt8](repeating: 0, count: 8)
        #expect(read(writer, &left, 8) == 3)

        // Without a writer, an open for reading would wait for one.
        let lonely = folder.file("lonely.jpg")
        #expect(mkfifo(lonely, 0o600) == 0)
        let alone = Background { Result { () throws(SystemError) in try RegularFile(path: lonely) } }
        let refused = try #require(alone.wait(seconds: 5), "opening a FIFO without a writer blocked")
        #expect(throws: SystemError("open", path: lonely, reason: .notRegularFile(.fifo))) { try refused.get() }
    }

    @Test func devicesAndDirectoriesAreRefusedSayingWhatTheyAre() {
        #expect(throws: SystemError("open", path: "/dev/zero", reason: .notRegularFile(.characterDevice))) {
            try RegularFile.read("/dev/zero", limit: 1 << 20)
        }
        #expect(throws: SystemError("open", path: "/tmp", reason: .notRegularFile(.directory))) {
            try RegularFile(path: "/tmp")
        }
        #expect(SystemError("open", path: "/dev/zero", reason: .notRegularFile(.characterDevice)).description
                == "open /dev/zero: not a regular file (a character device)")
    }

    @Test func aFileOverTheLimitIsRefusedNamingItsSizeAndTheLimit() throws {
        let folder = try TemporaryDirectory("large")
        defer { folder.remove() }
        let path = folder.file("vitrine.toml")
        try writeBytes([UInt8](repeating: 0x23, count: (1 << 20) + 1), to: path)
        let error = try #require(throws: SystemError.self) { try RegularFile.read(path, limit: 1 << 20) }
        #expect(error == SystemError("read", path: path, reason: .tooLarge(size: 1_048_577, limit: 1_048_576)))
        #expect(error.description == "read \(path): file too large: 1048577 bytes (1 MB), the limit is 1048576 bytes (1 MB)")
        // At the limit exactly, it is read.
        try writeBytes([UInt8](repeating: 0x23, count: 1 << 20), to: path)
        #expect(try RegularFile.read(path, limit: 1 << 20).count == 1 << 20)
    }

    @Test func aMissingFileNamesTheCallThePathAndTheErrno() {
        #expect(throws: SystemError("stat", path: "/nonexistent/a.jpg", errno: .noSuchFileOrDirectory)) {
            try RegularFile(path: "/nonexistent/a.jpg")
        }
    }

    @Test func aKernelFileThatSaysSizeZeroIsReadToItsEnd() throws {
        let text = String(decoding: try RegularFile.read("/proc/self/statm", limit: 4096), as: UTF8.self)
        #expect(text.split(separator: " ").count >= 2)
    }
}
