import Glibc

/// What stat(2) or lstat(2) says about a path: its kind, size and modification time. The one way
/// Vitrine asks about a file it has not opened (the photo folder's entries, the thumbnail cache's
/// files and the photos it keys on).
public struct FileStatus: Equatable, Sendable {
    public let kind: FileKind
    public let size: Int
    /// The modification time (any time a file may say, 2300 included).
    public let modified: FileTime
    /// The group it belongs to (for "join group video" when a device node refuses the user).
    public let group: gid_t
    /// For a device node, its major and minor numbers (DRM cards are major 226); 0, 0 otherwise.
    public let deviceMajor: UInt32
    public let deviceMinor: UInt32

    /// The file at `path`; with `followingLinks` false, a symbolic link itself (lstat), not what it
    /// points to. Fails with the call's name and errno (ENOENT for a file that is gone).
    public init(path: String, followingLinks: Bool = true) throws(SystemError) {
        var info = stat()
        try FileName.withPath(path) { (cPath) throws(SystemError) in
            if followingLinks {
                try systemCall("stat", path: path) { stat(cPath, &info) }
            } else {
                try systemCall("lstat", path: path) { lstat(cPath, &info) }
            }
        }
        self.init(info)
    }

    init(_ info: stat) {
        kind = FileKind(mode: info.st_mode)
        size = fileSize(info.st_size)
        modified = FileTime(info.st_mtim)
        group = info.st_gid
        // glibc's gnu_dev_major/minor, written out: the macros do not come through to Swift.
        deviceMajor = UInt32(truncatingIfNeeded: ((info.st_rdev >> 8) & 0xFFF) | ((info.st_rdev >> 32) & ~0xFFF))
        deviceMinor = UInt32(truncatingIfNeeded: (info.st_rdev & 0xFF) | ((info.st_rdev >> 12) & ~0xFF))
    }

    public init(kind: FileKind, size: Int, modified: FileTime, group: gid_t = 0) {
        self.kind = kind
        self.size = size
        self.modified = modified
        self.group = group
        deviceMajor = 0
        deviceMinor = 0
    }

    /// What the node is, for messages: "a regular file", "a character device 1:3".
    public var nodeDescription: String {
        switch kind {
        case .characterDevice: "a character device \(deviceMajor):\(deviceMinor)"
        case .blockDevice: "a block device \(deviceMajor):\(deviceMinor)"
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        case .unknown: "not a file or device"
        }
    }

    /// The modification time in whole seconds since the epoch.
    public var modifiedSeconds: Int64 { modified.seconds }
}
