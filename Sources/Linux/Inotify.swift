import CLinux
import Glibc

/// An inotify descriptor: the photo folder (files appearing, vanishing, replaced) and /dev/input
/// (touch panels plugged in later).
public final class Inotify {
    public struct Event: Equatable, Sendable {
        public var watch: Int32
        public var mask: UInt32
        public var cookie: UInt32
        public var name: String

        public func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
    }

    public static let created = Int32(IN_CREATE)
    public static let closedAfterWrite = Int32(IN_CLOSE_WRITE)
    public static let modified = Int32(IN_MODIFY)
    public static let deleted = Int32(IN_DELETE)
    public static let movedFrom = Int32(IN_MOVED_FROM)
    public static let movedTo = Int32(IN_MOVED_TO)
    public static let attributes = Int32(IN_ATTRIB)
    public static let selfDeleted = Int32(IN_DELETE_SELF)
    public static let selfMoved = Int32(IN_MOVE_SELF)
    public static let overflow = Int32(IN_Q_OVERFLOW)
    public static let ignored = Int32(IN_IGNORED)
    public static let isDirectory = Int32(IN_ISDIR)

    private let descriptor: OwnedDescriptor

    public init() throws {
        descriptor = OwnedDescriptor(rawValue: try systemCall("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) },
                                     name: "inotify")
    }

    public func close() { try? descriptor.close() }

    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Watches `path` for the events in `mask`; returns the watch descriptor events carry.
    @discardableResult
    public func watch(_ path: String, mask: Int32) throws -> Int32 {
        try systemCall("inotify_add_watch", path: path) { inotify_add_watch(fileDescriptor, path, UInt32(bitPattern: mask)) }
    }

    public func unwatch(_ watch: Int32) {
        inotify_rm_watch(fileDescriptor, watch)
    }

    /// Drains the queued events.
    public func read() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let header = MemoryLayout<inotify_event>.size
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in
                (try? systemCall("read", path: "inotify") { Glibc.read(fileDescriptor, raw.baseAddress, raw.count) }) ?? -1
            }
            guard n > 0 else { return events }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + header <= n {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                    events.append(Event(watch: wd, mask: mask, cookie: cookie, name: FileName.string(nameBytes)))
                    offset += header + length
                }
            }
        }
    }
}
