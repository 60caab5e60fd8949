import Config
import Logging
import RemoteControl
import RemoteHTTP
import RemoteMQTT

extension RemoteLink {
    /// The transports the settings ask for, on one shared `RemoteState`: the HTTP server when
    /// `remote.listen` is set, MQTT (SPEC §14) when `mqtt.broker` is (`mqtt`: that transport, which
    /// a reload reconfigures). nil when none is.
    static func start(_ settings: Settings, version: String, logger: Logger,
                      mqtt: inout MQTTTransport?) throws -> RemoteLink? {
        try RemoteLink(version: version) { state in
            var transports: [ControlTransport] = []
            if let address = settings.remote.listen {
                if case .off(let why) = AccessToken.load(path: settings.remote.tokenFile) {
                    logger.notice("remote: /screenshot and /control are off: \(why)")
                }
                transports.append(RemoteServer(host: address.host, port: address.port, tokenFile: settings.remote.tokenFile,
                                               state: state, logger: logger))
            }
            if let transport = MQTTTransport(settings.mqtt, state: state, version: version, logger: logger) {
                mqtt = transport
                transports.append(transport)
            }
            return transports
        }
    }
}
