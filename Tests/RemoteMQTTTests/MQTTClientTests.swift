import Foundation
import Glibc
import Linux
import Logging
import Testing
import TestSupport
@testable import RemoteMQTT

/// `MQTTClient` against a real mosquitto started by each test on a free loopback port; the other
/// side is Debian's mosquitto_pub and mosquitto_sub. Serialized: each test times reconnections,
/// and the machine's two cores are shared.
@Suite(.serialized, .enabled(if: MosquittoBroker.missing == nil, "\(MosquittoBroker.missing ?? "")"))
struct MQTTClientTests {
    /// Seconds: the backoff is 0.25 s doubling to 2 s here, so the tests wait less than a kiosk would.
    static let schedule = ReconnectSchedule(shortest: 0.25, longest: 2)

    static func options(_ broker: MosquittoBroker, tls: Bool = false, caPath: String = "/etc/ssl/certs",
                        username: String? = nil, password: String? = nil,
                        will: MQTTMessage? = nil) -> MQTTClientOptions {
        MQTTClientOptions(host: "127.0.0.1", port: broker.port, tls: tls, caPath: caPath, username: username,
                          password: password, clientID: "vitrine-test-\(broker.port)", keepalive: 5, will: will)
    }

    @Test func aPublishedMessageReachesASubscriberAndASubscribedOneComesBack() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let recorder = LogRecorder(), events = ConnectionEvents()
        let client = try MQTTClient(options: Self.options(broker), logger: recorder.logger, schedule: Self.schedule)
        client.start(delegate: events)
        defer { client.stop() }
        try #require(events.wait { $0.connected == 1 })

        #expect(client.publish(MQTTMessage(topic: "vitrine/test/state", text: #"{"mode":"grid"}"#, retain: true)))
        #expect(try broker.receive(topic: "vitrine/test/state") == [#"{"mode":"grid"}"#])

        client.subscribe(topic: "vitrine/test/command")
        // Retained, so it arrives whether or not the SUBACK came first.
        try broker.publish(["-t", "vitrine/test/command", "-m", #"{"action":"next"}"#, "-r"])
        try #require(events.wait { !$0.received.isEmpty })
        #expect(events.snapshot.received.map(\.topic) == ["vitrine/test/command"])
        #expect(events.snapshot.received.first?.payload == Array(#"{"action":"next"}"#.utf8))
        #expect(recorder.messages.contains { $0.text.contains("connected to mqtt://127.0.0.1:\(broker.port)") })
    }

    @Test func theWillArrivesWhenTheConnectionDiesAndTheClientComesBack() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let events = ConnectionEvents()
        let will = MQTTMessage(topic: "vitrine/test/availability", text: "offline", retain: true)
        let client = try MQTTClient(options: Self.options(broker, will: will), logger: LogRecorder().logger, schedule: Self.schedule)
        client.start(delegate: events)
        defer { client.stop() }
        try #require(events.wait { $0.connected == 1 })
        #expect(client.publish(MQTTMessage(topic: "vitrine/test/availability", text: "online", retain: true)))
        #expect(try broker.receive(topic: "vitrine/test/availability") == ["online"])

        client.severConnection()
        try #require(events.wait { $0.connected == 2 })
        #expect(events.snapshot.disconnected == 1)
        #expect(try broker.receive(topic: "vitrine/test/availability") == ["offline"])
    }

    @Test func aCleanStopLeavesNoWillAndPublishesNothing() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let events = ConnectionEvents()
        let will = MQTTMessage(topic: "vitrine/test/availability", text: "offline", retain: true)
        let client = try MQTTClient(options: Self.options(broker, will: will), logger: LogRecorder().logger, schedule: Self.schedule)
        client.start(delegate: events)
        try #require(events.wait { $0.connected == 1 })
        client.stop()
        #expect(try broker.receive(topic: "vitrine/test/#", seconds: 1) == [])
        #expect(!client.publish(MQTTMessage(topic: "vitrine/test/state", text: "late")))
        #expect(broker.log.contains("Client vitrine-test-\(broker.port) disconnected."))
    }

    @Test func aBrokerDownAtStartIsReachedWithinTheBackoffAndPublishingMeanwhileNeverWaits() throws {
        let broker = try MosquittoBroker()
        let recorder = LogRecorder(), events = ConnectionEvents()
        let client = try MQTTClient(options: Self.options(broker), logger: recorder.logger, schedule: Self.schedule)
        client.start(delegate: events)
        defer { client.stop() }
        Thread.sleep(forTimeInterval: 2)
        let before = MonotonicClock.now()
        for _ in 0..<1000 { #expect(!client.publish(MQTTMessage(topic: "vitrine/test/state", text: "x"))) }
        #expect(MonotonicClock.now() - before < 0.5)
        #expect(events.snapshot.connected == 0)

        try broker.start()
        // Attempts every 2 s by now: connected within that and a margin.
        try #require(events.wait(seconds: 5) { $0.connected == 1 })
        let warnings = recorder.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("cannot connect to mqtt://127.0.0.1:\(broker.port): mosquitto_") == true)
        #expect(warnings.first?.contains("Connection refused") == true)
        #expect(recorder.messages.filter { $0.text.contains("connected to mqtt://127.0.0.1:\(broker.port) again after") }.count == 1)
    }

    @Test func aBrokerKilledAndRestartedIsReconnectedAndTheLossSaidOnce() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let recorder = LogRecorder(), events = ConnectionEvents()
        let client = try MQTTClient(options: Self.options(broker), logger: recorder.logger, schedule: Self.schedule)
        client.start(delegate: events)
        defer { client.stop() }
        try #require(events.wait { $0.connected == 1 })

        broker.kill()
        try #require(events.wait { $0.disconnected == 1 })
        #expect(!client.isConnected)
        Thread.sleep(forTimeInterval: 3)  // several failed attempts
        try broker.start()
        try #require(events.wait(seconds: 5) { $0.connected == 2 })
        #expect(recorder.messages.filter { $0.level == .warning }.map(\.text).count == 1)
        #expect(recorder.messages.contains { $0.level == .warning && $0.text.contains("lost the connection to mqtt://127.0.0.1:\(broker.port)") })
        #expect(recorder.messages.filter { $0.text.contains("again after") }.count == 1)
        // And it works again: the state goes out.
        #expect(client.publish(MQTTMessage(topic: "vitrine/test/state", text: "back", retain: true)))
        #expect(try broker.receive(topic: "vitrine/test/state") == ["back"])
    }

    /// A real mosquitto behind a proxy that cuts every connection 100 ms after the CONNACK. The
    /// waits keep doubling to the longest (0.8 s here) because no connection holds (2 s here), so
    /// in 8 s the client connects about a dozen times, not the 40 that a wait started again at
    /// each CONNACK gives; the log has the loss, the reconnect and one line per summary period
    /// (3 s here) with the count, not two lines per connection. Once the proxy stops cutting, the
    /// connection holds and the log says so once.
    @Test func aBrokerThatDropsEachConnectionIsTriedLessAndLessOftenAndLoggedWithACount() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let proxy = try FlappingProxy(brokerPort: broker.port, cutAfter: 0.1)
        defer { proxy.stop() }
        let recorder = LogRecorder(), events = ConnectionEvents()
        let options = MQTTClientOptions(host: "127.0.0.1", port: proxy.port, clientID: "vitrine-flapping", keepalive: 5)
        let schedule = ReconnectSchedule(shortest: 0.1, longest: 0.8, stableAfter: 2, summaryPeriod: 3)
        let client = try MQTTClient(options: options, logger: recorder.logger, schedule: schedule)
        client.start(delegate: events)
        defer { client.stop() }
        let start = MonotonicClock.now()
        try #require(events.wait { $0.connected == 1 })
        Thread.sleep(forTimeInterval: 8 - (MonotonicClock.now() - start))
        let connections = events.snapshot.connected
        let lines = recorder.messages.filter { $0.level >= .info }.map(\.text)
        print("flapping broker: \(connections) connections and \(lines.count) log lines (info and above) in 8 s")
        // Waits 0.1, 0.2, 0.4 and 0.8 s, then 0.8 s each: 4 + 6.5 s / 0.9 s is 11 connections,
        // plus a margin for the loaded machine's connection set-ups.
        #expect(connections >= 5 && connections <= 14, "\(connections) connections in 8 s")
        #expect(proxy.cutConnections >= connections - 1)
        // "connecting", "connected", the loss, the reconnect, the first repeat and then one line
        // per 3 s.
        #expect(lines.count <= 8, "\(lines.joined(separator: "\n"))")
        #expect(lines.filter { $0.contains("lost the connection to mqtt://127.0.0.1:\(proxy.port)") }.count == 1)
        let repeats = lines.filter { $0.contains("connection to mqtt://127.0.0.1:\(proxy.port) lost again (") }
        #expect(repeats.count >= 2 && repeats.count <= 4, "\(lines.joined(separator: "\n"))")
        #expect(repeats.first?.contains("lost again (1 time in the last") == true, "\(repeats)")
        #expect(repeats.first?.contains("each within 2 s of connecting") == true, "\(repeats)")

        proxy.cutting = false
        try #require(recorder.wait(seconds: 6) { $0.contains { $0.text.contains("has held 2 s, after") } },
                     "\(recorder.messages.map(\.text).joined(separator: "\n"))")
        #expect(client.isConnected)
        #expect(client.publish(MQTTMessage(topic: "vitrine/test/state", text: "steady", retain: true)))
        #expect(try broker.receive(topic: "vitrine/test/state") == ["steady"])
    }

    @Test func aServerSendingGarbageNeitherCrashesNorHangsTheClientWhichKeepsTrying() throws {
        let server = try GarbageServer()
        defer { server.stop() }
        let recorder = LogRecorder(), events = ConnectionEvents()
        let options = MQTTClientOptions(host: "127.0.0.1", port: server.port, clientID: "vitrine-garbage", keepalive: 5)
        let client = try MQTTClient(options: options, logger: recorder.logger, schedule: Self.schedule)
        client.start(delegate: events)
        let deadline = Date(timeIntervalSinceNow: 10)
        while server.accepted < 3, Date() < deadline { usleep(50_000) }
        #expect(server.accepted >= 3)
        #expect(!client.publish(MQTTMessage(topic: "t", text: "x")))
        let before = MonotonicClock.now()
        client.stop()
        #expect(MonotonicClock.now() - before < 2)
        #expect(events.snapshot.connected == 0)
        let warnings = recorder.messages.filter { $0.level == .warning }
        #expect(warnings.count == 1)
    }

    @Test func theRightPasswordConnectsAndAWrongOneIsRefusedWithTheReason() throws {
        let folder = try TemporaryDirectory("mqtt-credentials")
        defer { folder.remove() }
        let passwords = try MosquittoBroker.passwordFile(in: folder, user: "kiosk", password: "s3cret")
        let broker = try MosquittoBroker(settings: ["allow_anonymous false", "password_file \(passwords)"])
        try broker.start()

        let events = ConnectionEvents()
        let client = try MQTTClient(options: Self.options(broker, username: "kiosk", password: "s3cret"),
                                    logger: LogRecorder().logger, schedule: Self.schedule)
        client.start(delegate: events)
        try #require(events.wait { $0.connected == 1 })
        client.stop()

        let recorder = LogRecorder(), refused = ConnectionEvents()
        let wrong = try MQTTClient(options: Self.options(broker, username: "kiosk", password: "guess"),
                                   logger: recorder.logger, schedule: Self.schedule)
        wrong.start(delegate: refused)
        try #require(recorder.wait { $0.contains { $0.level == .warning } })
        Thread.sleep(forTimeInterval: 1)  // more attempts, no more lines
        wrong.stop()
        let warnings = recorder.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("refused the connection: Connection Refused: not authorised") == true)
        #expect(refused.snapshot.connected == 0)
    }

    @Test func tlsWithTheBrokersCAConnectsAndWithAnotherCAIsRefusedWithTheReason() throws {
        let folder = try TemporaryDirectory("mqtt-tls")
        defer { folder.remove() }
        let certificates = try TestCertificates(in: folder, name: "right")
        let stranger = try TestCertificates(in: folder, name: "stranger")
        let broker = try MosquittoBroker(settings: [
            "certfile \(certificates.serverCertificate)", "keyfile \(certificates.serverKey)",
            "cafile \(certificates.caCertificate)",
        ])
        try broker.start()

        let events = ConnectionEvents()
        let client = try MQTTClient(options: Self.options(broker, tls: true, caPath: certificates.caFolder),
                                    logger: LogRecorder().logger, schedule: Self.schedule)
        #expect(client.brokerName == "mqtts://127.0.0.1:\(broker.port)")
        client.start(delegate: events)
        try #require(events.wait { $0.connected == 1 })
        #expect(client.publish(MQTTMessage(topic: "vitrine/test/state", text: "secure", retain: true)))
        client.stop()

        let recorder = LogRecorder(), refused = ConnectionEvents()
        let wrong = try MQTTClient(options: Self.options(broker, tls: true, caPath: stranger.caFolder),
                                   logger: recorder.logger, schedule: Self.schedule)
        wrong.start(delegate: refused)
        try #require(recorder.wait { $0.contains { $0.level == .warning } })
        wrong.stop()
        let warning = recorder.messages.first { $0.level == .warning }?.text ?? ""
        #expect(warning.contains("certificate verify failed"), "\(warning)")
        #expect(refused.snapshot.connected == 0)
    }
}

/// What the client told its delegate, for the tests to wait on.
final class ConnectionEvents: MQTTConnectionDelegate, @unchecked Sendable {
    struct Snapshot {
        var connected = 0
        var disconnected = 0
        var reasons: [String] = []
        var received: [MQTTMessage] = []
    }

    private let condition = NSCondition()
    private var events = Snapshot()

    var snapshot: Snapshot { condition.withLock { events } }

    func connected(_ connection: MQTTConnection) { change { $0.connected += 1 } }
    func disconnected(_ connection: MQTTConnection, reason: String) {
        change { $0.disconnected += 1; $0.reasons.append(reason) }
    }
    func received(_ message: MQTTMessage, on connection: MQTTConnection) { change { $0.received.append(message) } }

    private func change(_ body: (inout Snapshot) -> Void) {
        condition.withLock {
            body(&events)
            condition.broadcast()
        }
    }

    /// Waits until `done` holds of the events; false when `seconds` pass first.
    func wait(seconds: Double = 10, until done: (Snapshot) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while !done(events) {
                if !condition.wait(until: deadline) { return done(events) }
            }
            return true
        }
    }
}

extension LogRecorder {
    /// Polls the messages until `done` holds of them; false when `seconds` pass first.
    func wait(seconds: Double = 10, until done: ([(level: Logger.Level, text: String)]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if done(messages) { return true }
            usleep(20_000)
        }
        return done(messages)
    }
}

/// A TCP server on loopback that answers every connection with bytes no MQTT broker would send
/// (a CONNACK's type byte with a length that runs past the end, then HTTP) and closes it.
final class GarbageServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var count = 0
    private var finished = false

    var accepted: Int { lock.withLock { count } }

    init() throws {
        (fd, port) = try LoopbackListener.open()
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Ends the accepting thread (shutdown wakes its accept) and closes the socket.
    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        while lock.withLock({ !finished }) { usleep(10_000) }
        close(fd)
    }

    private func serve() {
        let garbage: [UInt8] = [0x20, 0xff, 0xff, 0xff, 0x7f] + Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8) + [0x00, 0xe0, 0x13]
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                lock.withLock { finished = true }
                return
            }
            lock.withLock { count += 1 }
            _ = garbage.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            usleep(50_000)
            close(client)
        }
    }
}

struct ListenFailure: Error {
    var errno: Int32
}
