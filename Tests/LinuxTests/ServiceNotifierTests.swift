import Foundation
import Glibc
import TestSupport
import Testing
@testable import Linux

/// The notify protocol against a real AF_UNIX datagram socket, as systemd listens on it.
@Suite struct ServiceNotifierTests {
    /// A bound datagram socket standing in for systemd's notify socket.
    final class NotifySocket {
        let fd: Int32
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "vitrine-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
            fd = try systemCall("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0) }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            _ = try withUnsafePointer(to: &addr) { p in
                try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    try systemCall("bind") { bind(fd, sa, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
        }

        deinit {
            close(fd)
            unlink(path)
        }

        func receive() -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return String(decoding: buffer.prefix(max(0, n)), as: UTF8.self)
        }
    }

    @Test func readyStatusAndWatchdogArriveAsDatagrams() throws {
        let socket = try NotifySocket()
        let notifier = try #require(ServiceNotifier(environment: ["NOTIFY_SOCKET": socket.path]))
        defer { notifier.close() }
        notifier.ready(status: "showing 14 photos")
        notifier.watchdog()
        #expect(socket.receive() == "READY=1\nSTATUS=showing 14 photos")
        #expect(socket.receive() == "WATCHDOG=1")
    }

    @Test func withoutNotifySocketThereIsNoNotifier() {
        #expect(ServiceNotifier(environment: [:]) == nil)
    }

    @Test func theWatchdogIsPingedAtHalfItsPeriodAndOnlyForThisProcess() {
        #expect(ServiceNotifier.watchdogInterval(["WATCHDOG_USEC": "10000000"]) == 5)
        #expect(ServiceNotifier.watchdogInterval(["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "\(getpid())"]) == 5)
        #expect(ServiceNotifier.watchdogInterval(["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"]) == nil)
        #expect(ServiceNotifier.watchdogInterval([:]) == nil)
    }
}

@Suite struct InotifyTests {
    @Test func aFileWrittenAndClosedThenRenamedAndDeletedIsSeen() throws {
        let folder = try TestPaths.temporaryDirectory("inotify")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inotify = try Inotify()
        defer { inotify.close() }
        try inotify.watch(folder, mask: Inotify.closedAfterWrite | Inotify.movedTo | Inotify.movedFrom | Inotify.deleted)

        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/a.jpg"))
        try FileManager.default.moveItem(atPath: folder + "/a.jpg", toPath: folder + "/b.jpg")
        try FileManager.default.removeItem(atPath: folder + "/b.jpg")

        let events = inotify.read()
        #expect(events.contains { $0.name == "a.jpg" && $0.has(Inotify.closedAfterWrite) })
        #expect(events.contains { $0.name == "a.jpg" && $0.has(Inotify.movedFrom) })
        #expect(events.contains { $0.name == "b.jpg" && $0.has(Inotify.movedTo) })
        #expect(events.contains { $0.name == "b.jpg" && $0.has(Inotify.deleted) })
        #expect(inotify.read().isEmpty)
    }
}
