import CLinux
import Glibc

/// One epoll loop over every descriptor the kiosk waits on: the DRM card, input devices, inotify,
/// the decoder's eventfd, signals and timers. It sleeps in epoll_wait until one is ready, so a
/// still screen costs no CPU.
public final class EventLoop {
    public typealias Handler = () -> Void

    private let descriptor: OwnedDescriptor
    private var handlers: [Int32: Handler] = [:]

    public init() throws {
        descriptor = OwnedDescriptor(rawValue: try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) },
                                     name: "epoll")
    }

    /// Closes the epoll descriptor and forgets the handlers (and what they hold).
    public func close() {
        handlers.removeAll()
        try? descriptor.close()
    }

    private var epoll: Int32 { descriptor.rawValue }

    /// Calls `handler` on the loop whenever `fd` is readable (or hung up / in error: the handler's
    /// read then reports why).
    public func watch(_ fd: Int32, handler: @escaping Handler) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue
        event.data.fd = fd
        let op = handlers[fd] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        try systemCall("epoll_ctl") { epoll_ctl(epoll, op, fd, &event) }
        handlers[fd] = handler
    }

    /// Stops watching `fd`; call before closing it.
    public func unwatch(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = try? systemCall("epoll_ctl") { epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil) }
    }

    /// Waits up to `timeout` seconds (nil: forever) and runs the handlers of the ready descriptors.
    /// Returns how many were ready (0 on timeout).
    @discardableResult
    public func runOnce(timeout: Double?) throws -> Int {
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, 3_600_000)).rounded(.up)) } ?? -1
        let count = try systemCall("epoll_wait", retryOnInterrupt: true) {
            epoll_wait(epoll, &events, Int32(events.count), milliseconds)
        }
        for event in events.prefix(Int(count)) {
            handlers[event.data.fd]?()
        }
        return Int(count)
    }
}
