import Foundation
import Glibc

/// Files dated far outside nanoseconds-since-the-epoch in 64 bits (which end on 2262-04-11), as a
/// camera with a wrong clock, a restored backup or `touch -d 2300-01-01` leave them.
public enum FarFutureFiles {
    /// 2300-01-01T00:00:00Z in seconds since the epoch.
    public static let year2300: Int = 10_413_792_000

    /// Sets the access and modification times of `path` (utimensat, following links); fails the
    /// way utimensat does, with its errno.
    public static func setModified(_ path: String, seconds: Int = year2300, nanoseconds: Int = 123_456_789) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
            throw NSError(domain: "utimensat", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "utimensat \(path): errno \(errno)"])
        }
    }

    /// Every regular file under `folder` (recursively) dated `seconds`.
    public static func dateEverything(under folder: String, seconds: Int = year2300) throws {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            try setModified(folder + "/" + name, seconds: seconds)
        }
        try setModified(folder, seconds: seconds)
    }

    /// The modification time stat(2) reports for `path`, in whole seconds.
    public static func modifiedSeconds(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim.tv_sec : nil
    }
}
