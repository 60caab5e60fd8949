import CLinux
import Glibc

/// The kernel's device events (uevents) on a NETLINK_KOBJECT_UEVENT socket: what udev hears,
/// without udev. The kiosk listens for DRM "change" events, which the kernel sends when a display
/// is plugged in or pulled out (HOTPLUG=1), to probe its connector again.
public final class UeventMonitor {
    /// One uevent: "ACTION@DEVPATH" followed by KEY=VALUE properties.
    public struct Event: Equatable, Sendable {
        public var action: String
        public var devicePath: String
        public var properties: [String: String]

        public var subsystem: String? { properties["SUBSYSTEM"] }
        /// The device node under /dev, e.g. "dri/card0".
        public var deviceName: String? { properties["DEVNAME"] }

        /// Parses one datagram from the kernel; nil for anything else (udev's own "libudev"
        /// messages, which carry a binary header, or a truncated message).
        public static func parse(_ bytes: some Collection<UInt8>) -> Event? {
            let fields = bytes.split(separator: 0, omittingEmptySubsequences: true)
                .map { String(decoding: $0, as: UTF8.self) }
            guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
            var properties: [String: String] = [:]
            for field in fields.dropFirst() {
                guard let equals = field.firstIndex(of: "=") else { continue }
                properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
            }
            let action = String(header[..<at])
            guard !action.isEmpty, properties["ACTION"].map({ $0 == action }) ?? true else { return nil }
            return Event(action: action, devicePath: String(header[header.index(after: at)...]), properties: properties)
        }
    }

    private let descriptor: OwnedDescriptor

    /// Joins the kernel's uevent multicast group (1). Needs no privileges.
    public init() throws {
        let fd = try systemCall("socket", path: "NETLINK_KOBJECT_UEVENT") {
            socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                   NETLINK_KOBJECT_UEVENT)
        }
        descriptor = OwnedDescriptor(rawValue: fd, name: "uevent socket")
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = 1
        do {
            _ = try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    try systemCall("bind", path: "NETLINK_KOBJECT_UEVENT") {
                        Glibc.bind(fd, sa, socklen_t(MemoryLayout<sockaddr_nl>.size))
                    }
                }
            }
        } catch {
            close()
            throw error
        }
    }

    public func close() { try? descriptor.close() }

    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Drains the queued events. A queue that overflowed (ENOBUFS) loses events: the caller
    /// should treat the read as "something may have changed", which probing again covers.
    public func read() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let received = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try systemCall("recv", path: "NETLINK_KOBJECT_UEVENT") { Glibc.recv(fileDescriptor, raw.baseAddress, raw.count, 0) }
                }
            }
            let n: Int
            do {
                n = try received.get()
            } catch where error.errno == .noBufferSpace {
                continue
            } catch {
                return events
            }
            guard n > 0 else { return events }
            if let event = Event.parse(buffer.prefix(n)) { events.append(event) }
        }
    }
}
