import Foundation
import Glibc
import Linux

/// A TCP proxy on loopback in front of a real broker that cuts each connection `cutAfter` seconds
/// after the broker's first bytes (its CONNACK), as a flapping broker or a load balancer that
/// drops idle-looking connections does; with `cutting` off it relays as long as both sides want.
final class FlappingProxy: @unchecked Sendable {
    let port: Int
    let cutAfter: Double
    private let brokerPort: Int
    private let fd: Int32
    private let lock = NSLock()
    private var count = 0
    private var cut = 0
    private var cuttingOn = true
    private var finished = false
    private var acceptorGone = false
    private var relays = 0

    /// Connections accepted, and those cut.
    var accepted: Int { lock.withLock { count } }
    var cutConnections: Int { lock.withLock { cut } }
    var cutting: Bool {
        get { lock.withLock { cuttingOn } }
        set { lock.withLock { cuttingOn = newValue } }
    }

    init(brokerPort: Int, cutAfter: Double) throws {
        self.brokerPort = brokerPort
        self.cutAfter = cutAfter
        (fd, port) = try LoopbackListener.open()
        Thread { [self] in accepting() }.start()
    }

    /// Ends the accepting thread and every relay, and closes the socket.
    func stop() {
        lock.withLock { finished = true }
        shutdown(fd, Int32(SHUT_RDWR))
        while lock.withLock({ relays > 0 || !acceptorGone }) { usleep(10_000) }
        close(fd)
    }

    private func accepting() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 || lock.withLock({ finished }) {
                if client >= 0 { close(client) }
                lock.withLock { acceptorGone = true }
                return
            }
            lock.withLock {
                count += 1
                relays += 1
            }
            Thread { [self] in
                relay(client)
                lock.withLock { relays -= 1 }
            }.start()
        }
    }

    /// Copies bytes both ways until a side closes, the proxy stops, or the cut is due.
    private func relay(_ client: Int32) {
        defer { close(client) }
        let broker = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(broker) }
        var address = LoopbackListener.address(port: brokerPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(broker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        var firstAnswer: Double?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !lock.withLock({ finished }) {
            if let firstAnswer, cutting, MonotonicClock.now() - firstAnswer >= cutAfter {
                lock.withLock { cut += 1 }
                return
            }
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: broker, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 10) >= 0 else { return }
            for (index, (from, to)) in [(client, broker), (broker, client)].enumerated() where fds[index].revents != 0 {
                let count = read(from, &buffer, buffer.count)
                guard count > 0 else { return }
                if from == broker, firstAnswer == nil { firstAnswer = MonotonicClock.now() }
                var sent = 0
                while sent < count {
                    let wrote = buffer.withUnsafeBytes { send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                    guard wrote > 0 else { return }
                    sent += wrote
                }
            }
        }
    }
}
