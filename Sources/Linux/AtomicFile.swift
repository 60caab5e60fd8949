import Glibc
import SystemPackage

/// The one way Vitrine writes a file (a PNG snapshot, a thumbnail, the trace): a reader sees the
/// old contents or the new, never half. The bytes go to a temporary file of a new name in the
/// target's folder (O_CREAT|O_EXCL), are flushed to disk (fsync) and renamed over the target, and
/// the folder is flushed so that the rename survives a power cut. The temporary is removed on any
/// failure: an error thrown by `write` or `commit` leaves nothing behind.
///
/// Only a regular file, or a path where nothing is yet, is replaced (SPEC, issue #12). Anything
/// else given as the target - a FIFO, a character device, /dev/stdout (a symbolic link) - is
/// opened and written in place, never replaced by a regular file (`--trace /dev/stdout | jq`).
/// Opening a FIFO for writing waits for a reader, as a shell's `>` does.
///
/// Errors name the target, never the temporary.
public final class AtomicFile {
    public let path: String
    /// The temporary being written; nil when the target is written in place.
    private let temporary: String?
    private let descriptor: OwnedDescriptor
    /// Committed or discarded.
    private var finished = false

    /// Starts writing `path`.
    public init(path: String, permissions: mode_t = 0o644) throws(SystemError) {
        self.path = path
        if Self.isReplaceable(path) {
            let (temporary, fd) = try Self.createTemporary(beside: path, permissions: permissions)
            self.temporary = temporary
            descriptor = OwnedDescriptor(rawValue: fd, name: temporary)
        } else {
            temporary = nil
            let fd = try systemCall("open", path: path) { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
            descriptor = OwnedDescriptor(rawValue: fd, name: path)
        }
    }

    deinit {
        // Neither committed nor discarded: the descriptor asserts (debug) or is closed (release);
        // the temporary goes either way.
        if !finished, let temporary { unlink(temporary) }
    }

    /// `bytes` as the whole new contents of `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Whether `path` is written in place rather than replaced.
    public var writesInPlace: Bool { temporary == nil }

    /// Appends `bytes`, all of them (a short write is continued).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        let fd = descriptor.rawValue
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    try systemCall("write", path: path) { Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done) }
                }
            }
            do throws(SystemError) {
                let n = try result.get()
                // write(2) returns 0 only when nothing more fits.
                guard n > 0 else { throw SystemError("write", path: path, errno: .noSpace) }
                done += n
            } catch {
                discard()
                throw error
            }
        }
    }

    /// Makes the new contents the file's: fsync, close, rename over the target, fsync the folder.
    /// In place, only closes.
    public func commit() throws(SystemError) {
        guard let temporary else {
            finished = true
            try descriptor.close()
            return
        }
        do throws(SystemError) {
            let fd = descriptor.rawValue
            try systemCall("fsync", path: path) { fsync(fd) }
            try descriptor.close()
            try systemCall("rename", path: path) { rename(temporary, path) }
            finished = true
        } catch {
            discard()
            throw error
        }
        try Self.syncFolder(of: path)
    }

    /// Gives up: closes, and removes the temporary. The target is as it was (in place: as far as
    /// it was written). Safe to call after `commit` or a failure.
    public func discard() {
        guard !finished else { return }
        finished = true
        try? descriptor.close()
        if let temporary { unlink(temporary) }
    }

    /// Whether a file name in a folder is one of these temporaries (a crash leaves them behind).
    public static func isTemporary(name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".tmp-")
    }

    // MARK: - Helpers

    /// A regular file, or nothing yet: replaced. lstat, so that a symbolic link (/dev/stdout) is
    /// written through, not replaced. When lstat fails (no such file, or a folder that cannot be
    /// searched), creating the temporary says why.
    private static func isReplaceable(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 || FileKind(mode: info.st_mode) == .regular
    }

    /// ".NAME.tmp-XXXXXXXX" in the target's folder, created exclusively.
    private static func createTemporary(beside path: String, permissions: mode_t) throws(SystemError) -> (String, Int32) {
        let (folder, name) = split(path)
        while true {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let temporary = folder + "." + String(decoding: name.utf8.prefix(200), as: UTF8.self) + ".tmp-" + suffix
            do throws(SystemError) {
                let fd = try systemCall("open", path: path) {
                    open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
                }
                return (temporary, fd)
            } catch where error.errno == .fileExists {
                continue
            }
        }
    }

    /// fsync of the folder, so that the rename is on disk. A file system that cannot sync a
    /// folder (EINVAL) has nothing to flush.
    private static func syncFolder(of path: String) throws(SystemError) {
        let folder = split(path).folder
        let directory = folder.isEmpty ? "." : folder
        let fd = try systemCall("open", path: directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        let owned = OwnedDescriptor(rawValue: fd, name: directory)
        defer { try? owned.close() }
        do throws(SystemError) {
            try systemCall("fsync", path: directory) { fsync(fd) }
        } catch where error.errno == .invalidArgument {}
    }

    /// "dir/" and "name" ("" and "name" for a bare name).
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }
}
