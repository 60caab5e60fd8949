import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open photo file, read-only; the descriptor is closed when the value goes away. Errors carry the
/// failing call and errno.
final class PhotoFile {
    let path: String
    let size: Int
    let modified: Date
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PhotoError(path: path, reason: .unreadable(call: "open", errno: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = errno
            close(fd)
            throw PhotoError(path: path, reason: .unreadable(call: "fstat", errno: error))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw PhotoError(path: path, reason: .unreadable(call: "fstat (not a regular file)", errno: EISDIR))
        }
        self.fd = fd
        self.size = Int(info.st_size)
        self.modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    deinit {
        close(fd)
    }

    /// Up to `count` bytes from the start of the file (fewer if the file is shorter or shrinks).
    func readPrefix(_ count: Int) throws -> [UInt8] {
        let wanted = max(0, min(count, size))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, wanted - done, off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw PhotoError(path: path, reason: .unreadable(call: "pread", errno: errno))
            }
            if n == 0 { break }  // the file shrank since fstat
            done += n
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    func readAll() throws -> [UInt8] {
        try readPrefix(size)
    }
}
