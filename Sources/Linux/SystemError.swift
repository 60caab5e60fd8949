import Glibc
import SystemPackage

/// The one error of the Linux layer: which call failed, on which file or object, and why, e.g.
/// "open /srv/photos/a.jpg: Permission denied (EACCES)". Every module that calls into the kernel
/// throws it, or carries it inside its own error where it has a remedy to add.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The kernel's answer.
        case errno(Errno)
        /// A file that had to be a regular file (a photo, the config, a thumbnail, a recording).
        case notRegularFile(FileKind)
        /// A path that had to be a folder (the photo folder) and is a file, a device, ...
        case notDirectory(FileKind)
        /// A file read whole that is larger than the reader allows (`size` as far as it is known).
        case tooLarge(size: Int, limit: Int)

        public var description: String {
            switch self {
            case .errno(let code):
                return "\(code) (\(SystemError.name(of: code)))"
            case .notRegularFile(let kind):
                return "not a regular file (\(kind))"
            case .notDirectory(let kind):
                return "not a folder (\(kind))"
            case .tooLarge(let size, let limit):
                return "file too large: \(exactly(size)), the limit is \(exactly(limit))"
            }
        }
    }

    /// The C call ("open", "read", "drmModeSetCrtc").
    public var call: String
    /// The file it was about, or the object ("CRTC 31"); nil when there is none worth naming.
    public var path: String?
    public var reason: Reason

    public init(_ call: String, path: String? = nil, errno: Errno) {
        self.init(call, path: path, reason: .errno(errno))
    }

    public init(_ call: String, path: String? = nil, reason: Reason) {
        self.call = call
        self.path = path
        self.reason = reason
    }

    /// The kernel's error code; nil when the file itself was refused (not regular, too large).
    public var errno: Errno? {
        if case .errno(let code) = reason { return code }
        return nil
    }

    /// "open /srv/photos/a.jpg: Permission denied (EACCES)".
    public var description: String {
        path.map { "\(call) \(LogLine.escaped($0)): \(reason)" } ?? descriptionWithoutPath
    }

    /// "open: Permission denied (EACCES)", for messages that name the file already.
    public var descriptionWithoutPath: String { "\(call): \(reason)" }

    /// The symbolic name of the errno values a kiosk meets; the number for the rest.
    public static func name(of code: Errno) -> String {
        switch code.rawValue {
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
        case EEXIST: return "EEXIST"
        case EXDEV: return "EXDEV"
        case ENODEV: return "ENODEV"
        case ENOTDIR: return "ENOTDIR"
        case EISDIR: return "EISDIR"
        case EINVAL: return "EINVAL"
        case ENFILE: return "ENFILE"
        case EMFILE: return "EMFILE"
        case ENOTTY: return "ENOTTY"
        case EFBIG: return "EFBIG"
        case ENOSPC: return "ENOSPC"
        case EROFS: return "EROFS"
        case EPIPE: return "EPIPE"
        case ENAMETOOLONG: return "ENAMETOOLONG"
        case ENOSYS: return "ENOSYS"
        case ELOOP: return "ELOOP"
        case ENOBUFS: return "ENOBUFS"
        case EDQUOT: return "EDQUOT"
        default: return "errno \(code.rawValue)"
        }
    }
}

/// What a path names, as stat(2) tells it; it prints as "a FIFO", "a directory", ...
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, unknown

    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }

    public var description: String {
        switch self {
        case .regular: return "a regular file"
        case .directory: return "a directory"
        case .fifo: return "a FIFO"
        case .socket: return "a socket"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .symbolicLink: return "a symbolic link"
        case .unknown: return "an unknown kind of file"
        }
    }
}

/// "4096 bytes (4 KB)": the exact count, and the size a reader takes in at a glance where it differs.
private func exactly(_ bytes: Int) -> String {
    bytes.magnitude < 1024 ? "\(ByteCount(bytes))" : "\(bytes) bytes (\(ByteCount(bytes)))"
}
