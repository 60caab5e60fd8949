import Foundation
import Glibc
import Logging
import RemoteControl
import RemoteHTTP
import Synchronization
import Testing
import TestSupport

/// Slow and hostile clients against the real server on loopback (issue #22): connections that
/// send half a request, or nothing, and HTTP/1.0. The clients block on threads of their own (the
/// server answers on Swift's task threads, which the tests share); the deadlines are short so
/// that the tests are, and every wait is generous: they assert what happens, not how fast.
@Suite(.serialized) struct SlowClientTests {
    private static let shortDeadlines = RemoteServer.Limits(head: .milliseconds(500), request: .seconds(2),
                                                            connections: 64, connectionsPerAddress: 8)

    private func startServer(limits: RemoteServer.Limits) async throws -> (RemoteServer, Int) {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let state = RemoteState(version: "9.9.9", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .showing
        snapshot.photoCount = 3
        state.publish(snapshot)
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: "/nonexistent", state: state, logger: logger,
                                  limits: limits)
        for _ in 0..<3000 where server.port == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        return (server, try #require(server.port))
    }

    /// Runs `body` on a thread of its own and waits for it.
    private func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    private static func stopOffThePool(_ server: RemoteServer) {
        Thread { server.stop() }.start()
    }

    /// 64 connections from 127.0.0.2 each send half a request and reconnect as soon as they are
    /// cut, for as long as the scrape lasts; 127.0.0.1 still gets every answer, and the attacker
    /// never holds more than its address's share.
    @Test func halfRequestsFromOneAddressDoNotStarveAnother() async throws {
        let (server, port) = try await startServer(limits: Self.shortDeadlines)
        defer { Self.stopOffThePool(server) }
        let attack = SlowClientAttack(port: port, source: "127.0.0.2", connections: 64)
        let attacker = Thread { attack.run() }
        attacker.start()
        defer { attack.stop() }
        // Every one of the 64 is connected before the scrape begins.
        for _ in 0..<1000 where attack.connectionsMade < 64 { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(attack.connectionsMade >= 64)

        for round in 0..<6 {
            let path = round % 2 == 0 ? "/status" : "/metrics"
            let answer = try await offThePool { try LoopbackHTTP.get(port, path) }
            #expect(answer.status == 200, "\(path) in round \(round) while 127.0.0.2 sends half requests")
            if round % 2 == 0 { #expect(answer.body.contains("\"photo_count\":3")) }
        }
        // The server cuts what it cannot take (over the address's 8) and what never finishes its
        // head; the attacker reconnects each time. (Waited for: on a loaded machine the server's
        // nice 10 thread may be slow to accept them.)
        for _ in 0..<3000 where attack.cuts < 56 { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(attack.cuts >= 56)
        #expect(attack.connectionsMade > 64)
    }

    /// Only the head's deadline (0.5 s) can close these: the request's, and with it Hummingbird's
    /// idle timeout, is a minute, longer than the clients wait (30 s).
    @Test func aConnectionThatSendsNothingOrHalfAHeadIsClosed() async throws {
        let (server, port) = try await startServer(limits: .init(head: .milliseconds(500), request: .seconds(60),
                                                                 connections: 64, connectionsPerAddress: 8))
        defer { Self.stopOffThePool(server) }
        let silent = try await offThePool { try LoopbackHTTP.Connection(port: port, timeout: 30).readToEnd() }
        #expect(silent.text.isEmpty)
        #expect(silent.end == .closed)

        let half = try await offThePool { () -> (text: String, end: LoopbackHTTP.Connection.End) in
            let connection = try LoopbackHTTP.Connection(port: port, timeout: 30)
            try connection.send("GET /status HTTP/1.1\r\nHost: te")
            return connection.readToEnd()
        }
        #expect(half.end == .closed)

        // A head sent a byte every 10 ms, each well inside Hummingbird's idle timeout: the head's
        // deadline counts from the accept, not from the last byte, so the server cuts it long
        // before its 3,000 bytes are sent (30 s), and answers nothing.
        let trickle = try await offThePool { () -> (text: String, end: LoopbackHTTP.Connection.End, cut: Bool) in
            let connection = try LoopbackHTTP.Connection(port: port, timeout: 30)
            try connection.send("GET /status HTTP/1.1\r\nHost: test\r\nX-Padding: ")
            var cut = false
            for _ in 0..<3000 {
                guard (try? connection.send("a")) != nil else {
                    cut = true
                    break
                }
                usleep(10_000)
            }
            let end = connection.readToEnd()
            return (end.text, end.end, cut)
        }
        #expect(trickle.cut)
        #expect(trickle.end == .closed)
        #expect(trickle.text.isEmpty)

        // Answered, then idle on a kept-alive connection: closed after the head's deadline.
        let idle = try await offThePool { () -> (answer: String, then: LoopbackHTTP.Connection.End) in
            let connection = try LoopbackHTTP.Connection(port: port, timeout: 30)
            try connection.send("GET /status HTTP/1.1\r\nHost: test\r\n\r\n")
            let answer = connection.readAnswer()
            return (answer, connection.readToEnd().end)
        }
        #expect(idle.answer.hasPrefix("HTTP/1.1 200"))
        #expect(idle.then == .closed)
    }

    @Test func http10IsAnsweredWithConnectionCloseAndClosed() async throws {
        // Deadlines longer than the client's read timeout: the close comes from the answer.
        let (server, port) = try await startServer(limits: .init(head: .seconds(60), request: .seconds(60),
                                                                 connections: 64, connectionsPerAddress: 8))
        defer { Self.stopOffThePool(server) }
        for request in ["GET /status HTTP/1.0\r\n\r\n",
                        "GET /status HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
                        "GET /status HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"] {
            let reply = try await offThePool { () -> (text: String, end: LoopbackHTTP.Connection.End) in
                let connection = try LoopbackHTTP.Connection(port: port, timeout: 10)
                try connection.send(request)
                return connection.readToEnd()
            }
            let head = reply.text.components(separatedBy: "\r\n\r\n").first?.lowercased() ?? ""
            #expect(head.hasPrefix("http/1.1 200"), "\(request)")
            #expect(head.contains("\r\nconnection: close"), "\(request)")
            #expect(reply.end == .closed, "\(request)")
        }
        // HTTP/1.1 keeps the connection: two answers on one.
        let twice = try await offThePool { () -> [String] in
            let connection = try LoopbackHTTP.Connection(port: port, timeout: 10)
            try connection.send("GET /status HTTP/1.1\r\nHost: test\r\n\r\n")
            let first = connection.readAnswer()
            try connection.send("GET /metrics HTTP/1.1\r\nHost: test\r\n\r\n")
            return [first, connection.readAnswer()]
        }
        #expect(twice.allSatisfy { $0.hasPrefix("HTTP/1.1 200") })
        #expect(!twice[0].lowercased().contains("connection: close"))
    }
}

/// `connections` sockets from `source` that each send half a request head and never the rest;
/// one that the server closes is opened again at once. Runs until `stop`.
final class SlowClientAttack: @unchecked Sendable {
    let port: Int
    let source: String
    let connections: Int
    private let stopped = Atomic<Bool>(false)
    private let made = Atomic<Int>(0)
    private let cut = Atomic<Int>(0)

    init(port: Int, source: String, connections: Int) {
        self.port = port
        self.source = source
        self.connections = connections
    }

    var connectionsMade: Int { made.load(ordering: .relaxed) }
    var cuts: Int { cut.load(ordering: .relaxed) }

    func stop() { stopped.store(true, ordering: .relaxed) }

    func run() {
        var open: [LoopbackHTTP.Connection?] = Array(repeating: nil, count: connections)
        while !stopped.load(ordering: .relaxed) {
            for slot in open.indices where open[slot] == nil {
                guard let connection = try? LoopbackHTTP.Connection(port: port, from: source, timeout: 1) else { continue }
                made.add(1, ordering: .relaxed)
                try? connection.send("GET /status HTTP/1.1\r\nHost: vitrine\r\nUser-Agent: slo")
                open[slot] = connection
            }
            usleep(2000)
            var polls = open.map { pollfd(fd: $0?.fd ?? -1, events: Int16(POLLIN), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 20) > 0 else { continue }
            for (slot, polled) in polls.enumerated() where polled.revents != 0 {
                open[slot] = nil
                cut.add(1, ordering: .relaxed)
            }
        }
    }
}
