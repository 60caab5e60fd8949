import Glibc
import SystemPackage

/// How a C function says it failed.
public enum FailureConvention: Sendable {
    /// -1, with the code in errno: libc, and most C libraries.
    case minusOneAndErrno
    /// A negative value that is the code negated: the kernel's own convention, and libdrm's
    /// DRM_IOCTL helpers (drmModeSetCrtc, drmModeCreateDumbBuffer, ...). -1 is read from errno,
    /// because it is also -EPERM and the helpers that return it leave errno set.
    case negativeErrno
}

/// The one place EINTR is retried: runs `body`, runs it again while it fails with EINTR and the
/// caller asked for that (the default, for calls that are safe to repeat), and turns a failure
/// into a SystemError naming `call` and `path`. Never for close(2): Linux has closed the
/// descriptor whatever close returns, so a retry could close another thread's new descriptor.
@discardableResult
public func systemCall<Value: FixedWidthInteger>(
    _ call: @autoclosure () -> String, path: @autoclosure () -> String? = nil, retryOnInterrupt: Bool = true,
    convention: FailureConvention = .minusOneAndErrno, _ body: () -> Value
) throws(SystemError) -> Value {
    while true {
        let result = body()
        let code: Int32
        switch convention {
        case .minusOneAndErrno:
            guard result == -1 else { return result }
            code = Glibc.errno
        case .negativeErrno:
            guard result < 0 else { return result }
            code = result == -1 ? Glibc.errno : Int32(truncatingIfNeeded: 0 &- result)
        }
        if code == EINTR && retryOnInterrupt { continue }
        throw SystemError(call(), path: path(), errno: Errno(rawValue: code))
    }
}

/// `systemCall` for C functions that return a pointer, or NULL with errno set. A NULL with errno
/// left at 0 is ENOMEM (libdrm's getters fail that way when their malloc does).
public func systemCallPointer<Pointer>(
    _ call: @autoclosure () -> String, path: @autoclosure () -> String? = nil, retryOnInterrupt: Bool = true,
    _ body: () -> Pointer?
) throws(SystemError) -> Pointer {
    var pointer: Pointer?
    try systemCall(call(), path: path(), retryOnInterrupt: retryOnInterrupt) { () -> Int32 in
        Glibc.errno = 0
        pointer = body()
        guard pointer == nil else { return 0 }
        if Glibc.errno == 0 { Glibc.errno = ENOMEM }
        return -1
    }
    return pointer!
}

/// Waits until `descriptor` is readable (or hung up, or in error). False when `timeout` seconds
/// pass first; a signal restarts the wait with the time that is left.
public func waitUntilReadable(_ descriptor: Int32, timeout seconds: Double) throws(SystemError) -> Bool {
    let deadline = MonotonicClock.now() + max(0, seconds)
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = try systemCall("poll") {
        let left = max(0, deadline - MonotonicClock.now())
        return poll(&entry, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
    }
    return ready > 0
}
