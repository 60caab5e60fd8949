import Foundation
import Glibc
import SystemPackage
import TestSupport
import Testing
@testable import Linux

/// mkdir -p, unlink, stat and lstat through the Linux layer: what they do, and errors that name the
/// call, the path and what is wrong.
@Suite struct FileSystemChangesTests {
    @Test func makeDirectoriesMakesEveryMissingParentAndAcceptsAnExistingFolder() throws {
        let folder = try TemporaryDirectory("mkdir")
        defer { folder.remove() }
        let deep = folder.file("a/b/c")
        try FileName.makeDirectories(deep)
        #expect(try FileStatus(path: deep).kind == .directory)
        try FileName.makeDirectories(deep)  // again: nothing to do
        try FileName.makeDirectories(deep + "/")
        #expect(try FileName.list(folder.file("a")).map(\.name) == ["b"])
    }

    @Test func makeDirectoriesSaysWhichParentIsNotAFolder() throws {
        let folder = try TemporaryDirectory("mkdir-file")
        defer { folder.remove() }
        try writeBytes([1], to: folder.file("file"))
        #expect(throws: SystemError("mkdir", path: folder.file("file"), reason: .notDirectory(.regular))) {
            try FileName.makeDirectories(folder.file("file/thumbnails"))
        }
        #expect(throws: SystemError("mkdir", path: "/proc/1/nope", errno: .noSuchFileOrDirectory)) {
            try FileName.makeDirectories("/proc/1/nope/deeper")
        }
    }

    @Test func removeUnlinksAFileOrALinkNotWhatItPointsTo() throws {
        let folder = try TemporaryDirectory("unlink")
        defer { folder.remove() }
        try writeBytes([1, 2, 3], to: folder.file("target"))
        #expect(symlink(folder.file("target"), folder.file("link")) == 0)
        try FileName.remove(folder.file("link"))
        #expect(try FileName.list(folder.path).map(\.name) == ["target"])
        try FileName.remove(folder.file("target"))
        #expect(throws: SystemError("unlink", path: folder.file("target"), errno: .noSuchFileOrDirectory)) {
            try FileName.remove(folder.file("target"))
        }
        try FileName.makeDirectories(folder.file("sub"))
        #expect(throws: SystemError("unlink", path: folder.file("sub"), errno: .isDirectory)) {
            try FileName.remove(folder.file("sub"))
        }
    }

    @Test func statFollowsLinksAndLstatDoesNot() throws {
        let folder = try TemporaryDirectory("stat")
        defer { folder.remove() }
        try writeBytes([UInt8](repeating: 7, count: 1234), to: folder.file("target"))
        #expect(symlink(folder.file("target"), folder.file("link")) == 0)
        let target = try FileStatus(path: folder.file("link"))
        #expect(target.kind == .regular && target.size == 1234)
        #expect(target.modifiedSeconds > 1_600_000_000)
        #expect(try FileStatus(path: folder.file("link"), followingLinks: false).kind == .symbolicLink)
        #expect(throws: SystemError("lstat", path: folder.file("gone"), errno: .noSuchFileOrDirectory)) {
            try FileStatus(path: folder.file("gone"), followingLinks: false)
        }
    }

    @Test func theCurrentDirectoryIsTheOneGetcwdGives() throws {
        #expect(try FileName.currentDirectory() == FileManager.default.currentDirectoryPath)
    }
}
