#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a PNG could not be made or saved.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// PNG has no zero-sized images.
    case emptyImage(width: Int, height: Int)
    /// A zlib call failed with this return code.
    case compression(call: String, code: Int32)
    /// A system call failed while writing `path`.
    case write(path: String, call: String, errno: Int32)

    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            return "cannot encode a \(width)x\(height) image as PNG"
        case let .compression(call, code):
            return "PNG compression failed: \(call) returned \(code)"
        case let .write(path, call, errno):
            return "cannot write \(path): \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}
