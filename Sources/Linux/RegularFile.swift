import Glibc
import SystemPackage

/// A regular file opened for reading: the one way Vitrine reads a file it is given (a photo, the
/// config, a thumbnail, a touch recording). Only a regular file is read (a symbolic link to one is
/// fine): a FIFO, a socket, a device or a directory with the file's name is refused with an error
/// that says what it is. The kind is checked before the open, so that no device is opened for
/// nothing, and again on the open descriptor, which is what counts; the open itself is
/// non-blocking, so that a FIFO put there in between cannot block the thread. Reads are bounded:
/// a prefix, or the whole file up to a limit.
public final class RegularFile {
    public let path: String
    /// The size when it was opened.
    public let size: Int
    /// The modification time when it was opened.
    public let modified: FileTime
    private let descriptor: OwnedDescriptor

    public init(path: String) throws(SystemError) {
        var info = stat()
        let fd = try FileName.withPath(path) { (cPath) throws(SystemError) in
            try systemCall("stat", path: path) { stat(cPath, &info) }
            try Self.requireRegular(info, path: path)
            return try systemCall("open", path: path) { open(cPath, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        }
        let descriptor = OwnedDescriptor(rawValue: fd, name: path)
        do throws(SystemError) {
            try systemCall("fstat", path: path) { fstat(fd, &info) }
            try Self.requireRegular(info, path: path)
        } catch {
            try? descriptor.close()
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        size = fileSize(info.st_size)
        modified = FileTime(info.st_mtim)
    }

    /// The whole file at `path`, opened, read and closed.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let file = try RegularFile(path: path)
        defer { file.close() }
        return try file.readAll(limit: limit)
    }

    public func close() {
        try? descriptor.close()
    }

    /// Up to `count` bytes from the start of the file: fewer if the file is shorter, or shrank.
    public func readPrefix(_ count: Int) throws(SystemError) -> [UInt8] {
        try read(from: 0, upTo: max(0, count))
    }

    /// Up to `count` bytes from `offset` on: fewer if the file ends first (a container format's
    /// boxes, read where its index says they are).
    public func read(count: Int, at offset: Int) throws(SystemError) -> [UInt8] {
        guard offset <= Int.max / 2 else { return [] }  // past any file; and offset + count cannot overflow
        return try read(from: max(0, offset), upTo: min(max(0, count), Int.max / 2))
    }

    /// The whole file. A file larger than `limit` bytes is refused before anything is read, and
    /// one that grows past it while being read is refused too.
    public func readAll(limit: Int) throws(SystemError) -> [UInt8] {
        guard size <= limit else { throw SystemError("read", path: path, reason: .tooLarge(size: size, limit: limit)) }
        // Reading one byte past the limit tells a file that grew from one that ends there; files
        // of /proc and /sys say size 0 and are read to their end all the same.
        let bytes = try read(from: 0, upTo: limit < Int.max ? limit + 1 : limit)
        guard bytes.count <= limit else {
            throw SystemError("read", path: path, reason: .tooLarge(size: bytes.count, limit: limit))
        }
        return bytes
    }

    /// Sets the modification time to now (the thumbnail cache's "last used").
    public func touch() throws(SystemError) {
        let fd = descriptor.rawValue
        try systemCall("futimens", path: path) { futimens(fd, nil) }
    }

    /// pread from `offset` until `count` bytes or the end of the file.
    private func read(from offset: Int, upTo count: Int) throws(SystemError) -> [UInt8] {
        let fd = descriptor.rawValue
        var bytes = [UInt8](repeating: 0, count: min(count, max(size - min(offset, size), 4096)))
        var done = 0
        while done < count {
            if done == bytes.count {
                // All that stat said is read: whether the file goes on (it grew; /proc says 0) is
                // asked 64 KB at a time into a buffer of its own, so that a file read whole is held
                // once, not in a buffer grown to twice its size for the read that finds its end.
                var more = [UInt8](repeating: 0, count: min(count - done, 64 * 1024))
                let n = try more.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemError) in
                        try systemCall("read", path: path) { pread(fd, buffer.baseAddress!, buffer.count, off_t(offset + done)) }
                    }
                }.get()
                if n == 0 { break }
                bytes += more[..<n]
                done += n
                continue
            }
            let n = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in
                    try systemCall("read", path: path) { pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
                }
            }.get()
            if n == 0 { break }
            done += n
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    private static func requireRegular(_ info: stat, path: String) throws(SystemError) {
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else { throw SystemError("open", path: path, reason: .notRegularFile(kind)) }
    }
}
