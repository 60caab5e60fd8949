import CMosquitto
import Foundation
import Glibc
import Linux
import Logging

/// The libmosquitto edge (SPEC §14): one broker connection on a thread of its own, which connects,
/// reads, writes, pings and reconnects; `publish` and `subscribe` only queue and never wait for the
/// network. The thread runs `mosquitto_loop` itself rather than `mosquitto_loop_start`, whose loop
/// gives up for good on a TLS error, a failed DNS lookup or a broker that sends garbage: a kiosk
/// must keep trying whatever the broker did, with its own backoff (`ReconnectSchedule`: 1 s
/// doubling to 60 s, reset only by a connection that held 30 s), and say so once. The delegate is
/// called on that thread.
///
/// The will (`offline`, retained) is set before the first connect; `stop()` publishes nothing
/// itself (the bridge publishes `offline` first), disconnects cleanly, joins the thread and frees
/// the library's state.
public final class MQTTClient: MQTTConnection, @unchecked Sendable {
    /// QoS 1 for everything: at least once, which the kiosk's retained state and idempotent
    /// commands tolerate.
    static let qos: Int32 = 1
    /// How long an attempt may take from the TCP connect to the broker's CONNACK (a broker that
    /// accepts and says nothing, or a TLS peer that stalls).
    static let connectTimeout = 10.0
    /// `mosquitto_loop`'s longest wait: how soon the thread sees `stop()` while a connect is pending.
    static let loopMilliseconds: Int32 = 250
    /// Publishes the broker has not acknowledged yet beyond which `publish` refuses: a broker that
    /// reads nothing cannot make the queue grow without bound.
    static let unacknowledgedLimit = 256
    /// The niceness of the client's thread: under load the frame loop (nice 0) gets the CPU first.
    static let nice: Int32 = 10

    public let options: MQTTClientOptions
    /// "mqtt://host:port" or "mqtts://host:port", for the log.
    public let brokerName: String
    private let handle: OpaquePointer
    private let logger: Logger
    private let condition = NSCondition()
    /// Held while the thread (re)starts a connection, which replaces the socket pair that
    /// `mosquitto_disconnect` from `stop` writes to.
    private let connecting = NSLock()
    // Under `condition`:
    private weak var delegate: MQTTConnectionDelegate?
    private var state = State()

    private struct State {
        var started = false
        var stopping = false
        var threadGone = false
        /// Between the broker's CONNACK and the loss of the connection.
        var connected = false
        var unacknowledged = 0
    }

    // Only on the client's thread (and its callbacks, which run on it):
    private var schedule = ReconnectSchedule()
    /// Set by the disconnect callback: the socket is gone and why.
    private var endedReason: String?
    /// The library's last error-level log line, for a failure whose code says little (TLS).
    private var lastLibraryError: String?
    /// The CONNACK's refusal (bad credentials, ...), for the failure it causes.
    private var refusal: String?

    /// Once per process, before any client (mosquitto_lib_init is not thread-safe).
    private static let libraryInitialised: Int32 = mosquitto_lib_init()

    /// Prepares the connection (client id, will, credentials, TLS) without touching the network;
    /// throws when libmosquitto refuses an option. `start` connects. `schedule`: the waits between
    /// attempts (tests shorten them).
    public init(options: MQTTClientOptions, logger: Logger, schedule: ReconnectSchedule = ReconnectSchedule()) throws(MQTTError) {
        _ = Self.libraryInitialised
        self.options = options
        self.schedule = schedule
        self.logger = logger
        brokerName = "\(options.tls ? "mqtts" : "mqtt")://\(options.host.contains(":") ? "[\(options.host)]" : options.host):\(options.port)"
        guard let handle = mosquitto_new(options.clientID, true, nil) else {
            throw MQTTError("mosquitto_new", code: Int32(MOSQ_ERR_ERRNO.rawValue))
        }
        self.handle = handle
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        // publish() and subscribe() from other threads only queue and wake the loop's select.
        try check("mosquitto_threaded_set", mosquitto_threaded_set(handle, true))
        if let will = options.will {
            try check("mosquitto_will_set", will.payload.withUnsafeBytes {
                mosquitto_will_set(handle, will.topic, Int32(clamping: $0.count), $0.baseAddress, Self.qos, will.retain)
            })
        }
        if let username = options.username, !username.isEmpty {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(handle, username, options.password))
        }
        if options.tls {
            // The broker's certificate is checked against the CA store and its name against the
            // host (libmosquitto's default unless told it is insecure, which Vitrine never does).
            try check("mosquitto_tls_set", mosquitto_tls_set(handle, nil, options.caPath, nil, nil, nil))
        }
        mosquitto_connect_callback_set(handle) { _, context, code in MQTTClient.from(context).didConnect(code) }
        mosquitto_disconnect_callback_set(handle) { _, context, code in MQTTClient.from(context).didDisconnect(code) }
        mosquitto_publish_callback_set(handle) { _, context, _ in MQTTClient.from(context).didAcknowledge() }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message else { return }
            MQTTClient.from(context).didReceive(message.pointee)
        }
        mosquitto_log_callback_set(handle) { _, context, level, text in
            guard let text, level & Int32(MOSQ_LOG_ERR) != 0 else { return }
            MQTTClient.from(context).lastLibraryError = String(cString: text)
        }
    }

    deinit {
        mosquitto_destroy(handle)
    }

    /// Starts the client's thread, which connects (and reconnects) until `stop`. Called once.
    public func start(delegate: MQTTConnectionDelegate) {
        let first = condition.withLock {
            defer { state.started = true }
            self.delegate = delegate
            return !state.started
        }
        guard first else { return }
        logger.info("mqtt: connecting to \(brokerName) as \(options.clientID)")
        let thread = Thread { [self] in
            // Nicer than the frame loop, as the HTTP server's threads are.
            try? ThreadPriority.setCurrentThreadNice(Self.nice)
            run()
            condition.withLock {
                state.threadGone = true
                condition.broadcast()
            }
        }
        thread.name = "vitrine-mosq"
        thread.start()
    }

    /// Disconnects (the broker then drops the will: this is no failure), joins the thread and
    /// forgets the delegate. Queued messages go out before the DISCONNECT when the connection is up.
    public func stop() {
        let started = condition.withLock {
            state.stopping = true
            condition.broadcast()
            return state.started
        }
        guard started else { return }
        // Wakes the loop's select at once when connected; otherwise it sees `stopping` within
        // `loopMilliseconds` or the backoff's wait ends now.
        connecting.withLock { _ = mosquitto_disconnect(handle) }
        condition.withLock {
            while !state.threadGone { condition.wait() }
            delegate = nil
        }
    }

    // MARK: - MQTTConnection

    /// Queues `message` at QoS 1; false when not connected, when libmosquitto refuses it (topic,
    /// size), or when too many earlier ones are still unacknowledged.
    @discardableResult
    public func publish(_ message: MQTTMessage) -> Bool {
        let admitted = condition.withLock { () -> Bool in
            guard state.connected, !state.stopping, state.unacknowledged < Self.unacknowledgedLimit else { return false }
            state.unacknowledged += 1
            return true
        }
        guard admitted else { return false }
        let code = message.payload.withUnsafeBytes {
            mosquitto_publish(handle, nil, message.topic, Int32(clamping: $0.count), $0.baseAddress, Self.qos, message.retain)
        }
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
            condition.withLock { state.unacknowledged = max(0, state.unacknowledged - 1) }
            logger.debug("mqtt: \(MQTTError("mosquitto_publish", code: code)) (topic \(LogLine.escaped(message.topic)))")
            return false
        }
        return true
    }

    /// Subscribes at QoS 1; nothing when not connected (the bridge subscribes on each `connected`).
    public func subscribe(topic: String) {
        guard condition.withLock({ state.connected }) else { return }
        let code = mosquitto_subscribe(handle, nil, topic, Self.qos)
        if code != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            logger.warning("mqtt: \(MQTTError("mosquitto_subscribe", code: code)) (topic \(LogLine.escaped(topic)))")
        }
    }

    /// Whether the broker has accepted the connection and it has not gone away since.
    public var isConnected: Bool { condition.withLock { state.connected } }

    // MARK: - The client's thread

    private var stopping: Bool { condition.withLock { state.stopping } }

    private func run() {
        var first = true
        while !stopping {
            endedReason = nil
            refusal = nil
            lastLibraryError = nil
            // The first call stores the host and port; the next ones reuse them.
            let code = connecting.withLock {
                guard !stopping else { return Int32(MOSQ_ERR_SUCCESS.rawValue) }
                return first
                    ? mosquitto_connect_async(handle, options.host, Int32(clamping: options.port), Int32(clamping: max(5, options.keepalive)))
                    : mosquitto_reconnect_async(handle)
            }
            let call = first ? "mosquitto_connect_async" : "mosquitto_reconnect_async"
            first = false
            let failure: String
            if code != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                failure = MQTTError(call, code: code, detail: lastLibraryError).description
            } else if let reason = pump() {
                failure = reason
            } else {
                break  // stopping
            }
            connectionEnded(reason: failure)
            guard !stopping else { break }
            let (wait, report) = schedule.failed(reason: failure, at: MonotonicClock.now())
            switch report {
            case .cannotConnect(let reason)?:
                logger.warning("mqtt: cannot connect to \(brokerName): \(reason); retrying in the background (every \(Int(schedule.shortest)) s at first, every \(Int(schedule.longest)) s at most)")
            case .lost(let reason)?:
                logger.warning("mqtt: lost the connection to \(brokerName): \(reason); reconnecting in the background")
            case .lostAgain(let reason, let times, let seconds)?:
                logger.warning("mqtt: connection to \(brokerName) lost again (\(times) time\(times == 1 ? "" : "s") in the last \(Self.duration(seconds)), each within \(Int(schedule.stableAfter)) s of connecting; last: \(reason)); next attempt in \(Self.duration(wait)), backing off up to \(Int(schedule.longest)) s")
            default:
                logger.debug("mqtt: attempt \(schedule.failures) failed: \(failure); next in \(wait) s")
            }
            condition.withLock {
                let deadline = Date(timeIntervalSinceNow: wait)
                while !state.stopping, condition.wait(until: deadline) {}
            }
        }
        if endedReason == nil { drainAfterDisconnect() }
        connectionEnded(reason: "stopped")
    }

    /// Runs the library's loop while the connection (or its attempt) lasts; the reason it ended,
    /// or nil when `stop` ended it.
    private func pump() -> String? {
        let attemptStart = MonotonicClock.now()
        while true {
            let code = mosquitto_loop(handle, Self.loopMilliseconds, 1)
            if stopping { return nil }
            if let reason = endedReason { return reason }
            if code != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                return refusal ?? MQTTError("mosquitto_loop", code: code, detail: lastLibraryError).description
            }
            if !isConnected {
                if MonotonicClock.now() - attemptStart > Self.connectTimeout {
                    return "no CONNACK from the broker within \(Int(Self.connectTimeout)) s"
                }
            } else if case .stable(let losses, let seconds)? = schedule.connectionHeld(at: MonotonicClock.now()) {
                logger.notice("mqtt: the connection to \(brokerName) has held \(Int(schedule.stableAfter)) s, after \(losses) losses in \(Self.duration(seconds)); the backoff starts again at \(Self.duration(schedule.shortest))")
            }
        }
    }

    /// After `stop`'s DISCONNECT: lets the loop write what is queued and the DISCONNECT, for a
    /// second at most.
    private func drainAfterDisconnect() {
        _ = mosquitto_disconnect(handle)
        let deadline = MonotonicClock.now() + 1
        while endedReason == nil, MonotonicClock.now() < deadline {
            if mosquitto_loop(handle, 100, 1) != Int32(MOSQ_ERR_SUCCESS.rawValue) { break }
        }
    }

    /// The connection is down (or never came up): tells the delegate once per connection.
    private func connectionEnded(reason: String) {
        let wasConnected = condition.withLock {
            defer { state.connected = false }
            return state.connected
        }
        guard wasConnected, let delegate = condition.withLock({ delegate }) else { return }
        delegate.disconnected(self, reason: reason)
    }

    /// "0.5 s", "40 s", "15 min" for the log.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return "\((seconds * 10).rounded() / 10) s" }
        if seconds < 120 { return "\(Int(seconds.rounded())) s" }
        return "\(Int((seconds / 60).rounded())) min"
    }

    // MARK: - Callbacks (on the client's thread, inside mosquitto_loop)

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTClient {
        Unmanaged<MQTTClient>.fromOpaque(context!).takeUnretainedValue()
    }

    private func didConnect(_ code: Int32) {
        guard code == 0 else {
            refusal = "the broker refused the connection: \(String(cString: mosquitto_connack_string(code)))"
            return
        }
        let delegate = condition.withLock {
            state.connected = true
            state.unacknowledged = 0
            return self.delegate
        }
        switch schedule.connected(at: MonotonicClock.now()) {
        case .reconnected(let attempts, let seconds)?:
            logger.notice("mqtt: connected to \(brokerName) again after \(attempts) failed attempt\(attempts == 1 ? "" : "s") (\(Int(seconds.rounded())) s)")
        case .connected?:
            logger.info("mqtt: connected to \(brokerName)")
        default:
            // Again in a trouble already reported: its losses are counted in one line.
            logger.debug("mqtt: connected to \(brokerName) again")
        }
        delegate?.connected(self)
    }

    private func didDisconnect(_ code: Int32) {
        endedReason = refusal
            ?? (code == 0 ? "disconnected" : MQTTError("mosquitto_loop", code: code, detail: lastLibraryError).description)
    }

    private func didAcknowledge() {
        condition.withLock { state.unacknowledged = max(0, state.unacknowledged - 1) }
    }

    private func didReceive(_ message: mosquitto_message) {
        guard let topic = message.topic else { return }
        let count = max(0, Int(message.payloadlen))
        let payload = count == 0 || message.payload == nil
            ? [] : Array(UnsafeRawBufferPointer(start: message.payload, count: count))
        let received = MQTTMessage(topic: String(cString: topic), payload: payload, retain: message.retain)
        condition.withLock { delegate }?.received(received, on: self)
    }

    // MARK: - Set-up

    private func check(_ call: String, _ code: Int32) throws(MQTTError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MQTTError(call, code: code) }
    }
}

extension MQTTClient {
    /// Test hook: cuts the TCP connection under the library, as a network that fails does; the
    /// broker sees no DISCONNECT and publishes the will, the client reconnects.
    func severConnection() {
        let socket = mosquitto_socket(handle)
        if socket >= 0 { Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
    }
}
