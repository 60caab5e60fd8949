#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// The one place that turns a C return value into a thrown error. libdrm calls come in two styles:
/// -1 with errno set (the drmIoctl family) and a negative errno returned directly (the newer
/// drmMode*DumbBuffer helpers); both end here. EINTR is retried only where the caller asks.
@discardableResult
func checked(_ call: String, detail: String = "", retryOnInterrupt: Bool = true,
             _ body: () -> Int32) throws -> Int32 {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = result == -1 ? errno : -result
        if code == EINTR && retryOnInterrupt { continue }
        throw systemError(call, Errno(rawValue: code), detail: detail)
    }
}

/// For libdrm calls that return a pointer and set errno when they return NULL.
func checkedPointer<T>(_ call: String, detail: String = "", _ body: () -> T?) throws -> T {
    while true {
        errno = 0
        if let pointer = body() { return pointer }
        let code = errno
        if code == EINTR { continue }
        // libdrm's allocating getters can fail with errno left at 0 (out of memory in drmMalloc).
        throw systemError(call, Errno(rawValue: code == 0 ? ENOMEM : code), detail: detail)
    }
}

/// Sorts errno values that have a remedy into their own errors.
func systemError(_ call: String, _ code: Errno, detail: String) -> DRMError {
    let modeSetting = call == "drmModeSetCrtc" || call == "drmModePageFlip"
    switch code {
    case .permissionDenied where call == "open":
        return .permissionDenied(path: detail)
    case .permissionDenied where modeSetting, .notPermitted where modeSetting:
        // Mode setting without being master fails with EACCES (legacy) or EPERM.
        return .notMaster(call: call, errno: code)
    case .resourceBusy where call == "drmModeSetCrtc":
        // ...or EBUSY when another master holds the CRTC. (EBUSY from PageFlip only means a
        // flip is still pending, which present() never lets happen.)
        return .notMaster(call: call, errno: code)
    default:
        return .system(call: call, errno: code, detail: detail)
    }
}

/// Waits until `descriptor` is readable. Returns false on timeout; EINTR restarts the wait with
/// the time that is left.
func pollReadable(_ descriptor: Int32, timeout seconds: Double) throws -> Bool {
    let deadline = monotonicSeconds() + max(0, seconds)
    while true {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let left = max(0, deadline - monotonicSeconds())
        let result = poll(&entry, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
        if result > 0 { return true }
        if result == 0 { return false }
        if errno != EINTR { throw DRMError.system(call: "poll", errno: Errno(rawValue: errno), detail: "") }
    }
}

/// CLOCK_MONOTONIC in seconds, the clock that page-flip timestamps use.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
