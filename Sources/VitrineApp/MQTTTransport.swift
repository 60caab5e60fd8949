import Config
import Foundation
import Linux
import Logging
import RemoteControl
import RemoteMQTT

/// The MQTT transport as `run` starts it from `[mqtt]` (SPEC §14): libmosquitto's `MQTTClient`
/// with `MQTTBridge` as its delegate. On reload (SIGHUP, a "reload" action) the settings and the
/// password file are read again, on a thread of its own, and the connection is made again only
/// when they changed: a rotated password counts without a restart, and the loop never waits.
final class MQTTTransport: ControlTransport, @unchecked Sendable {
    /// What a connection is made from; another one means another connection.
    struct Configuration: Equatable {
        var broker: MQTTBroker
        var topics: MQTTTopics
        var username: String?
        var password: String?
        var homeAssistant: Bool
    }

    private let state: RemoteState
    private let version: String
    private let hostname: String
    private let logger: Logger
    /// Held while a connection is made or taken down (a reload's thread, `stop`).
    private let lock = NSLock()
    private var running: (configuration: Configuration, bridge: MQTTBridge)?
    private var stopped = false

    /// nil when `mqtt.broker` is "" (off).
    init?(_ mqtt: Settings.MQTT, state: RemoteState, version: String, logger: Logger) {
        guard mqtt.broker != nil else { return nil }
        self.state = state
        self.version = version
        self.logger = logger
        hostname = HostName.current()
        lock.withLock { apply(mqtt) }
    }

    /// After a reload: the new `[mqtt]` and password file, applied off the loop.
    func reload(_ mqtt: Settings.MQTT) {
        let thread = Thread { [self] in lock.withLock { if !stopped { apply(mqtt) } } }
        thread.name = "vitrine-mqtt-reload"
        thread.start()
    }

    func stop() {
        lock.withLock {
            stopped = true
            running?.bridge.stop()
            running = nil
        }
    }

    /// Under `lock`.
    private func apply(_ mqtt: Settings.MQTT) {
        let configuration = configuration(mqtt)
        guard configuration != running?.configuration else { return }
        if let running {
            logger.info("mqtt: settings changed; connecting again")
            running.bridge.stop()
        }
        running = nil
        guard let configuration else { return }
        let topics = configuration.topics
        let options = MQTTClientOptions(
            host: configuration.broker.host, port: configuration.broker.port, tls: configuration.broker.tls,
            username: configuration.username, password: configuration.password, clientID: "vitrine-" + topics.nodeID,
            will: MQTTMessage(topic: topics.availability, text: MQTTTopics.offline, retain: true))
        let client: MQTTClient
        do {
            client = try MQTTClient(options: options, logger: logger)
        } catch {
            return logger.error("mqtt: off: \(error)")
        }
        let discovery = configuration.homeAssistant ? HomeAssistantDiscovery(topics: topics, deviceName: hostname, version: version) : nil
        let bridge = MQTTBridge(topics: topics, discovery: discovery, state: state, connection: client,
                                closeConnection: { client.stop() }, logger: logger)
        bridge.startTimer()
        client.start(delegate: bridge)
        let discoveryNote = configuration.homeAssistant ? ", with Home Assistant discovery" : ""
        logger.info("mqtt: topics under \(LogLine.escaped(topics.base))\(discoveryNote)")
        running = (configuration, bridge)
    }

    /// nil when MQTT is off or the password file gives no password (said in the log: the kiosk
    /// runs on without MQTT until a reload finds one).
    private func configuration(_ mqtt: Settings.MQTT) -> Configuration? {
        guard let broker = mqtt.broker else { return nil }
        var password: String?
        if !mqtt.passwordFile.isEmpty {
            switch MQTTPassword.load(path: mqtt.passwordFile) {
            case .password(let text): password = text
            case .unusable(let why):
                logger.error("mqtt: off: \(why)")
                return nil
            }
        }
        return Configuration(broker: broker, topics: MQTTTopics(template: mqtt.topic, hostname: hostname),
                             username: mqtt.username.isEmpty ? nil : mqtt.username, password: password,
                             homeAssistant: mqtt.homeAssistant)
    }
}
