import Glibc

/// systemd's notify protocol (sd_notify(3)) spoken directly: one datagram of "KEY=VALUE" lines to
/// the AF_UNIX socket named in $NOTIFY_SOCKET. Written here rather than linking libsystemd because
/// the protocol is a dozen lines, the binary stays free of a library the static end-to-end build
/// would have to carry, and a kiosk without systemd (the test VM) simply has no $NOTIFY_SOCKET.
public final class ServiceNotifier {
    private let socket: OwnedDescriptor
    private var address: sockaddr_un
    private let addressLength: socklen_t
    /// Half of WatchdogSec when systemd's watchdog is on for this process: ping at least this often.
    public let watchdogInterval: Double?

    /// nil when the process was not started by systemd with Type=notify (no $NOTIFY_SOCKET).
    public init?(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty,
              path.hasPrefix("/") || path.hasPrefix("@") else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        // A leading '@' names an abstract socket: its name starts with a NUL byte.
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        address = addr
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
        guard let fd = try? systemCall("socket", { Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }) else {
            return nil
        }
        socket = OwnedDescriptor(rawValue: fd, name: "NOTIFY_SOCKET socket")
        watchdogInterval = Self.watchdogInterval(environment)
    }

    public func close() { try? socket.close() }

    /// READY=1: the first frame is on screen.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// STATUS=...: one line a person reads in `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(text)") }
    /// WATCHDOG=1: the frame loop is alive.
    public func watchdog() { send("WATCHDOG=1") }
    public func reloading() { send("RELOADING=1") }
    public func stopping() { send("STOPPING=1") }

    /// Sends one message; a lost notification must never stop the kiosk, so failures are ignored,
    /// and a receiver whose queue is full (a busy manager; only 10 datagrams by default) drops the
    /// message instead of blocking the frame loop until it reads (MSG_DONTWAIT).
    public func send(_ message: String) {
        let bytes = Array(message.utf8)
        let socketFD = socket.rawValue
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                try? systemCall("sendto", path: "NOTIFY_SOCKET") {
                    sendto(socketFD, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), sa, addressLength)
                }
            }
        }
    }

    /// WATCHDOG_USEC / 2 in seconds, when WATCHDOG_PID is unset or names this process.
    static func watchdogInterval(_ environment: [String: String]) -> Double? {
        guard let text = environment["WATCHDOG_USEC"], let usec = Double(text), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], let value = Int32(pid), value != getpid() { return nil }
        return usec / 1e6 / 2
    }
}
