import CMosquitto
import Glibc
import SystemPackage

/// A libmosquitto call that failed: its name and libmosquitto's words for the code, e.g.
/// "mosquitto_connect_async: Connection refused" or "mosquitto_loop: A TLS error occurred.
/// (OpenSSL Error[0]: ... certificate verify failed)". For MOSQ_ERR_ERRNO the words are the
/// system's, read from errno right after the call.
public struct MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    /// libmosquitto's code (`MOSQ_ERR_*`); for a refused CONNECT, `MOSQ_ERR_CONN_REFUSED`.
    public var code: Int32
    /// What the code means, and the library's own last error line when it said more.
    public var message: String

    public init(_ call: String, code: Int32, message: String) {
        self.call = call
        self.code = code
        self.message = message
    }

    /// The error of `call` that returned `code`, with errno as the call left it.
    public init(_ call: String, code: Int32, errno: Int32 = Glibc.errno, detail: String? = nil) {
        var words: String
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            words = errno == 0 ? "system error" : "\(Errno(rawValue: errno))"
        } else {
            words = String(cString: mosquitto_strerror(code))
        }
        if let detail, !detail.isEmpty { words += " (\(detail))" }
        self.init(call, code: code, message: words)
    }

    public var description: String { "\(call): \(message)" }
}
