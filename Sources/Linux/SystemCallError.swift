import Glibc

/// A failed system call: its name and errno, e.g. "open /dev/dri/card0: Permission denied (EACCES)".
public struct SystemCallError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        "\(call): \(String(cString: strerror(errno))) (\(Self.name(of: errno)))"
    }

    /// The symbolic name of the errno values a kiosk meets; the number for the rest.
    public static func name(of errno: Int32) -> String {
        switch errno {
        case EPERM: return "EPERM"
        case ENOENT: return "ENOENT"
        case EINTR: return "EINTR"
        case EIO: return "EIO"
        case ENXIO: return "ENXIO"
        case EBADF: return "EBADF"
        case EAGAIN: return "EAGAIN"
        case ENOMEM: return "ENOMEM"
        case EACCES: return "EACCES"
        case EBUSY: return "EBUSY"
        case ENODEV: return "ENODEV"
        case EINVAL: return "EINVAL"
        case ENOTTY: return "ENOTTY"
        case ENOSPC: return "ENOSPC"
        case EROFS: return "EROFS"
        default: return "errno \(errno)"
        }
    }
}

/// The one place that calls into libc for the Linux glue: runs `body`, retries it on EINTR when
/// asked, and turns -1 into a SystemCallError that names the call.
@discardableResult
public func systemCall<Result: FixedWidthInteger>(_ name: @autoclosure () -> String, retryOnInterrupt: Bool = true,
                                                  _ body: () -> Result) throws -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR && retryOnInterrupt { continue }
        throw SystemCallError(name(), errno: code)
    }
}
