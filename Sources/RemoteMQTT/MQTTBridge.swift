import Dispatch
import Foundation
import Linux
import Logging
import RemoteControl
import Synchronization

/// The MQTT transport (SPEC §14): the kiosk's side of a broker connection, plugged into the run
/// loop like the HTTP server, through `RemoteState` only. On each (re)connect it subscribes to
/// `TOPIC/command`, publishes `online` on `TOPIC/availability` (the connection's last will says
/// `offline`), Home Assistant's discovery config and the state. The state (`MQTTStateJSON`) is
/// published retained when it changes, at most once a second, from the snapshot the loop last
/// published, on the bridge's own timer thread: the frame loop never waits for the broker. A
/// command goes through `RemoteState.submit(json:)`, the same parsing and checks as `POST
/// /control`; a refusal is logged and answered on `TOPIC/error`, and nothing is done.
///
/// The connection (`MQTTClient`, libmosquitto) calls the delegate methods on its own thread;
/// `tick(now:)` runs on the timer thread. Tests drive both with a fake connection and virtual time.
public final class MQTTBridge: ControlTransport, MQTTConnectionDelegate, Sendable {
    /// The state is published at most this often (seconds).
    public static let statePeriod = 1.0
    /// How often the timer thread looks at the snapshot (seconds).
    public static let tickPeriod = 0.25
    /// A command longer than this is refused unread (`POST /control`'s bodies are as small).
    public static let commandLimit = 4096
    /// How much of a refused command `TOPIC/error` quotes.
    public static let quotedLimit = 200
    /// Refusals are logged at most this often (seconds); the others are counted in the next line.
    public static let refusalLogPeriod = 1.0
    /// The niceness of the timer thread: the frame loop (nice 0) gets the CPU first.
    static let nice: Int32 = 10

    private struct Published {
        var connected = false
        /// The state last published on this connection, and when.
        var state: [UInt8]?
        var time: Double?
        var lastRefusalLogged: Double?
        var refusalsUnlogged = 0
    }

    public let topics: MQTTTopics
    private let discovery: [MQTTMessage]
    /// Where the configs of the old node id are, to clear this kiosk's (see `HomeAssistantDiscovery`).
    private let legacyDiscovery: HomeAssistantDiscovery?
    private let state: RemoteState
    private let connection: any MQTTConnection
    private let closeConnection: @Sendable () -> Void
    private let clock: @Sendable () -> Double
    private let logger: Logger
    private let published = Mutex(Published())
    private let timerStop = DispatchSemaphore(value: 0)
    private let timerStopped = DispatchSemaphore(value: 0)
    private let timerStarted = Mutex(false)

    /// `connection` is the broker connection whose delegate this becomes (the caller starts it);
    /// `closeConnection` disconnects and frees it, at `stop`. `discovery`: Home Assistant's config,
    /// nil when `mqtt.home_assistant` is off. `clock` gives monotonic seconds.
    public init(topics: MQTTTopics, discovery: HomeAssistantDiscovery?, state: RemoteState, connection: any MQTTConnection,
                closeConnection: @escaping @Sendable () -> Void, logger: Logger,
                clock: @escaping @Sendable () -> Double = { MonotonicClock.now() }) {
        self.topics = topics
        self.discovery = discovery?.messages ?? []
        legacyDiscovery = discovery?.legacyConfigs == nil ? nil : discovery
        self.state = state
        self.connection = connection
        self.closeConnection = closeConnection
        self.logger = logger
        self.clock = clock
    }

    /// Starts the timer thread that publishes the state.
    public func startTimer() {
        timerStarted.withLock { $0 = true }
        let thread = Thread { [self] in
            try? ThreadPriority.setCurrentThreadNice(Self.nice)
            while timerStop.wait(timeout: .now() + Self.tickPeriod) == .timedOut {
                tick(now: clock())
            }
            timerStopped.signal()
        }
        thread.name = "vitrine-mqtt"
        thread.start()
    }

    /// Stops the timer, says `offline` (retained) as the will would, and closes the connection.
    public func stop() {
        if timerStarted.withLock({ $0 }) {
            timerStop.signal()
            timerStopped.wait()
        }
        let wasConnected = published.withLock { published in
            defer { published.connected = false }
            return published.connected
        }
        if wasConnected { connection.publish(MQTTMessage(topic: topics.availability, text: MQTTTopics.offline, retain: true)) }
        closeConnection()
    }

    // MARK: - The timer thread

    /// Publishes the state when it changed since it was last published and that was a second ago
    /// or more (or never, on this connection).
    public func tick(now: Double) {
        let payload = MQTTStateJSON.render(state.currentSnapshot())
        let due = published.withLock { published in
            guard published.connected, payload != published.state else { return false }
            if let time = published.time, now - time < Self.statePeriod { return false }
            return true
        }
        guard due, connection.publish(MQTTMessage(topic: topics.state, payload: payload, retain: true)) else { return }
        published.withLock {
            $0.state = payload
            $0.time = now
        }
    }

    // MARK: - MQTTConnectionDelegate, on the connection's thread

    public func connected(_ connection: any MQTTConnection) {
        connection.subscribe(topic: topics.command)
        if let legacy = legacyDiscovery?.legacyConfigs { connection.subscribe(topic: legacy) }
        connection.publish(MQTTMessage(topic: topics.availability, text: MQTTTopics.online, retain: true))
        for message in discovery { connection.publish(message) }
        published.withLock {
            $0.connected = true
            $0.state = nil
            $0.time = nil
        }
        logger.debug("mqtt: commands on \(LogLine.escaped(topics.command)), state on \(LogLine.escaped(topics.state))")
        tick(now: clock())
    }

    public func disconnected(_ connection: any MQTTConnection, reason: String) {
        published.withLock { $0.connected = false }
    }

    public func received(_ message: MQTTMessage, on connection: any MQTTConnection) {
        if let legacyDiscovery, legacyDiscovery.isLegacyConfig(message) {
            // An empty retained message deletes it, and Home Assistant the entity it made.
            if connection.publish(MQTTMessage(topic: message.topic, payload: [], retain: true)) {
                logger.info("mqtt: cleared the Home Assistant config \(LogLine.escaped(message.topic)) published under this kiosk's old node id")
            }
            return
        }
        guard message.topic == topics.command else { return }
        let result: Result<RemoteAction, RemoteRequestError>
        if message.payload.count > Self.commandLimit {
            result = .failure(RemoteRequestError(status: 413, message: "the command is \(message.payload.count) bytes; at most \(Self.commandLimit)"))
        } else if message.retain {
            // The broker would hand it over again at each reconnect, and it would act again.
            result = .failure(RemoteRequestError(status: 400, message: "a retained command is not taken (it would act again at each reconnect); publish it without retain"))
        } else {
            result = state.submit(json: message.payload)
        }
        switch result {
        case .success(let action):
            logger.debug("mqtt: \(action) queued")
        case .failure(let refusal):
            refused(message.payload, refusal.message)
        }
    }

    /// Logged (at most once a second, counting the rest) and answered on `TOPIC/error`.
    private func refused(_ command: [UInt8], _ why: String) {
        let now = clock()
        let unlogged = published.withLock { published -> Int? in
            if let last = published.lastRefusalLogged, now - last < Self.refusalLogPeriod {
                published.refusalsUnlogged += 1
                return nil
            }
            published.lastRefusalLogged = now
            defer { published.refusalsUnlogged = 0 }
            return published.refusalsUnlogged
        }
        if let unlogged {
            let more = unlogged > 0 ? " (\(unlogged) more refused before it)" : ""
            logger.notice("mqtt: command refused: \(why)\(more)")
        }
        connection.publish(MQTTMessage(topic: topics.error, payload: Self.errorJSON(why, command: command)))
    }

    /// `{"command": "the first 200 bytes", "error": "why"}`.
    static func errorJSON(_ why: String, command: [UInt8]) -> [UInt8] {
        let quoted = String(decoding: command.prefix(quotedLimit), as: UTF8.self)
        let object = ["error": why, "command": quoted]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }
}
