/// A message as published to or delivered by the broker.
public struct MQTTMessage: Equatable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool

    public init(topic: String, payload: [UInt8], retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    public init(topic: String, text: String, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}

/// Where and how to reach the broker (SPEC §14's `[mqtt]`, already checked by the config).
public struct MQTTClientOptions: Equatable, Sendable {
    public var host: String
    public var port: Int
    /// mqtts://: TLS with the system's CA store.
    public var tls: Bool
    /// The CA store TLS trusts (a directory of hashed certificates, Debian's /etc/ssl/certs).
    public var caPath: String
    public var username: String?
    public var password: String?
    public var clientID: String
    /// Seconds between pings while idle.
    public var keepalive: Int
    /// The last will: `offline` on `TOPIC/availability`, retained.
    public var will: MQTTMessage?

    public init(host: String, port: Int, tls: Bool = false, caPath: String = "/etc/ssl/certs",
                username: String? = nil, password: String? = nil, clientID: String,
                keepalive: Int = 30, will: MQTTMessage? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caPath = caPath
        self.username = username
        self.password = password
        self.clientID = clientID
        self.keepalive = keepalive
        self.will = will
    }
}

/// The kiosk's side of one broker connection, as `MQTTBridge` uses it. `MQTTClient` (libmosquitto)
/// runs on a thread of its own; nothing here waits for the network.
public protocol MQTTConnection: AnyObject, Sendable {
    /// Queues a message (QoS 1); false when it could not be queued (not connected: the bridge
    /// publishes its retained state again on the next `connected`).
    @discardableResult
    func publish(_ message: MQTTMessage) -> Bool
    /// Subscribes (QoS 1); called again by the bridge after each reconnect.
    func subscribe(topic: String)
}

/// What a connection tells its owner, on the connection's own thread.
public protocol MQTTConnectionDelegate: AnyObject, Sendable {
    /// Each (re)connect: subscribe and publish the retained state again.
    func connected(_ connection: MQTTConnection)
    func disconnected(_ connection: MQTTConnection, reason: String)
    func received(_ message: MQTTMessage, on connection: MQTTConnection)
}
