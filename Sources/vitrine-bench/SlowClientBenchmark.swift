import Foundation
import Glibc
import Linux
import Logging
import RemoteControl
import RemoteHTTP
import Synchronization

/// `vitrine-bench remote-attack`: `/status` latency from 127.0.0.1 while 127.0.0.2 holds
/// connections open with half a request each, reconnecting as soon as one is cut (issue #22).
/// Sequential requests, first with nobody else connected, then under the attack; prints p50, p99
/// and the maximum of each, and how many requests failed (no answer within 10 s). `--unbounded`
/// runs the server without the limit per address and with an hour for a head: the limits before
/// #22 (a half request was then cut only by the 10 s idle timeout), to show what the limits buy.
///
///     vitrine-bench remote-attack [--requests 200] [--connections 64] [--unbounded]
enum SlowClientBenchmark {
    static func run(arguments: [String]) throws {
        setvbuf(stdout, nil, _IOLBF, 0)
        let requests = Int(option("--requests", in: arguments) ?? "") ?? 200
        let connections = Int(option("--connections", in: arguments) ?? "") ?? 64
        let unbounded = arguments.contains("--unbounded")
        var limits = RemoteServer.Limits.standard
        if unbounded {
            limits.connectionsPerAddress = limits.connections
            limits.head = .seconds(3600)
        }
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let state = RemoteState(version: "bench", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .showing
        state.publish(snapshot)
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: "/nonexistent", state: state, logger: logger,
                                  limits: limits)
        defer { server.stop() }
        let deadline = Date().addingTimeInterval(10)
        while server.port == nil, Date() < deadline { usleep(10_000) }
        guard let port = server.port else { throw RemoteBenchmark.BenchError("the server did not start") }
        print("vitrine-bench remote-attack: \(requests) sequential GET /status from 127.0.0.1; the attack: \(connections) "
              + "connections from 127.0.0.2 each sending half a request head, reconnecting when cut; limits: head "
              + "\(limits.head), request \(limits.request), \(limits.connections) connections, "
              + "\(limits.connectionsPerAddress) per address\(unbounded ? " (--unbounded: as before #22)" : "")")

        _ = measure(port: port, requests: 20)  // warm-up
        let quiet = measure(port: port, requests: requests)
        print("without the attack: \(quiet.summary)")
        let attack = Attack(port: port, source: "127.0.0.2", connections: connections)
        let attacker = Thread { attack.run() }
        attacker.start()
        while attack.made.load(ordering: .relaxed) < connections, !attack.failing { usleep(10_000) }
        usleep(500_000)
        let attacked = measure(port: port, requests: requests)
        attack.stopped.store(true, ordering: .relaxed)
        print("under the attack:   \(attacked.summary)")
        print("the attacker opened \(attack.made.load(ordering: .relaxed)) connections; the server cut "
              + "\(attack.cut.load(ordering: .relaxed)) of them")
        while !attack.finished.load(ordering: .relaxed) { usleep(10_000) }
    }

    struct Latencies {
        var seconds: [Double] = []
        var failures = 0

        var summary: String {
            let sorted = seconds.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p / 100).rounded(.up)) - 1)]
            }
            return String(format: "%d answered, %d failed; p50 %.2f ms, p99 %.2f ms, max %.2f ms", sorted.count, failures,
                          percentile(50) * 1000, percentile(99) * 1000, (sorted.last ?? .nan) * 1000)
        }
    }

    static func measure(port: Int, requests: Int) -> Latencies {
        var latencies = Latencies()
        for _ in 0..<requests {
            let start = Stopwatch.now()
            if let connection = try? Client(port: port, from: "127.0.0.1", timeout: 10),
               (try? connection.send("GET /status HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")) != nil,
               connection.readToEnd().hasPrefix("HTTP/1.1 200") {
                latencies.seconds.append(Stopwatch.now() - start)
            } else {
                latencies.failures += 1
            }
        }
        return latencies
    }

    /// The attack: `connections` sockets from `source`, each with half a request head sent.
    final class Attack: @unchecked Sendable {
        let port: Int, source: String, connections: Int
        let stopped = Atomic<Bool>(false), finished = Atomic<Bool>(false)
        let made = Atomic<Int>(0), cut = Atomic<Int>(0)
        var failing = false

        init(port: Int, source: String, connections: Int) {
            self.port = port
            self.source = source
            self.connections = connections
        }

        func run() {
            // The attacker stands for clients on other machines: on the kiosk's own cores it runs
            // at nice 19 (as wrk does in `remote`), so that what making the attack costs is not
            // counted as what the server costs.
            try? ThreadPriority.setCurrentThreadNice(19)
            defer { finished.store(true, ordering: .relaxed) }
            var open: [Client?] = Array(repeating: nil, count: connections)
            while !stopped.load(ordering: .relaxed) {
                for slot in open.indices where open[slot] == nil {
                    guard let connection = try? Client(port: port, from: source, timeout: 1) else {
                        failing = true
                        continue
                    }
                    made.add(1, ordering: .relaxed)
                    try? connection.send("GET /status HTTP/1.1\r\nHost: vitrine\r\nUser-Agent: slo")
                    open[slot] = connection
                }
                var polls = open.map { pollfd(fd: $0?.fd ?? -1, events: Int16(POLLIN), revents: 0) }
                guard poll(&polls, nfds_t(polls.count), 20) > 0 else { continue }
                for (slot, polled) in polls.enumerated() where polled.revents != 0 {
                    open[slot] = nil
                    cut.add(1, ordering: .relaxed)
                }
            }
        }
    }

    /// A blocking TCP connection from a loopback address of choice.
    final class Client {
        let fd: Int32

        init(port: Int, from source: String, timeout: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw RemoteBenchmark.BenchError("socket: errno \(errno)") }
            var time = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            var local = Self.address(source, 0), remote = Self.address("127.0.0.1", port)
            let size = socklen_t(MemoryLayout<sockaddr_in>.size)
            guard withUnsafePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }) == 0,
                  withUnsafePointer(to: &remote, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } }) == 0
            else {
                close(fd)
                throw RemoteBenchmark.BenchError("connect from \(source): errno \(errno)")
            }
        }

        deinit { close(fd) }

        func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
                throw RemoteBenchmark.BenchError("send: errno \(errno)")
            }
        }

        func readToEnd() -> String {
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { break }
                reply += buffer[0..<n]
            }
            return String(decoding: reply, as: UTF8.self)
        }

        static func address(_ host: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            return address
        }
    }
}
