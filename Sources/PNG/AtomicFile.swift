#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents all at once: write a temporary file beside it, flush, rename.
enum AtomicFile {
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        let temporary = "\(path).tmp-\(getpid())"
        func failure(_ call: String) -> PNGError { .write(path: path, call: call, errno: errno) }

        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("open") }
        do {
            try bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = write(fd, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("write")
                    }
                    offset += written
                }
            }
            guard fsync(fd) == 0 else { throw failure("fsync") }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let error = failure("close")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("rename")
            unlink(temporary)
            throw error
        }
    }
}
