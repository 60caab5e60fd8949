import Linux
import SystemPackage

/// libdrm calls through the Linux layer's one helper. libdrm fails in two styles, -1 with errno
/// set (drmIoctl, drmHandleEvent) or a negative errno returned (the DRM_IOCTL helpers such as
/// drmModeSetCrtc and drmModeCreateDumbBuffer); `.negativeErrno` reads both. Errors with a remedy
/// come out as their own DRMError cases.
@discardableResult
func checked(_ call: String, detail: String = "", retryOnInterrupt: Bool = true,
             _ body: () -> Int32) throws -> Int32 {
    do {
        return try systemCall(call, path: detail.isEmpty ? nil : detail, retryOnInterrupt: retryOnInterrupt,
                              convention: .negativeErrno, body)
    } catch {
        throw DRMError(error)
    }
}

/// For libdrm calls that return a pointer and set errno when they return NULL.
func checkedPointer<T>(_ call: String, detail: String = "", _ body: () -> T?) throws -> T {
    do {
        return try systemCallPointer(call, path: detail.isEmpty ? nil : detail, body)
    } catch {
        throw DRMError(error)
    }
}

extension DRMError {
    /// Sorts errno values that have a remedy into their own errors.
    init(_ error: SystemError) {
        let modeSetting = error.call == "drmModeSetCrtc" || error.call == "drmModePageFlip"
        switch error.errno {
        case .permissionDenied? where error.call == "open" || error.call == "opendir":
            self = .permissionDenied(path: error.path ?? "")
        case .permissionDenied? where modeSetting, .notPermitted? where modeSetting:
            // Mode setting without being master fails with EACCES (legacy) or EPERM.
            self = .notMaster(error)
        case .resourceBusy? where error.call == "drmModeSetCrtc":
            // ...or EBUSY when another master holds the CRTC. (EBUSY from PageFlip only means a
            // flip is still pending, which present() never lets happen.)
            self = .notMaster(error)
        default:
            self = .system(error)
        }
    }
}

/// Waits until `descriptor` is readable. Returns false on timeout.
func pollReadable(_ descriptor: Int32, timeout seconds: Double) throws -> Bool {
    do {
        return try waitUntilReadable(descriptor, timeout: seconds)
    } catch {
        throw DRMError(error)
    }
}
