/// When the client tries the broker again, and what of its ups and downs is worth a log line: the
/// first failure of an outage and the connection that ends it, never each retry (a kiosk whose
/// broker is away for a week logs two lines, not ten thousand). Pure: the client hands it what
/// happened and the time, and carries out what it says.
public struct ReconnectSchedule: Equatable, Sendable {
    /// The first wait after a failure, in seconds; each failure in a row doubles it up to `longest`.
    public var shortest: Double
    public var longest: Double

    /// The wait after the next failure.
    public private(set) var delay: Double
    /// Failed attempts since the last connection (or since the start).
    public private(set) var failures = 0
    /// When the outage began (the loss, or the start for a broker never reached); nil while connected.
    public private(set) var outageStart: Double?
    /// Whether the client was ever connected: a first failure then is a loss, not a start.
    public private(set) var everConnected = false

    public init(shortest: Double = 1, longest: Double = 60) {
        self.shortest = max(0, shortest)
        self.longest = max(self.shortest, longest)
        delay = self.shortest
    }

    /// What the log says about an event; nil when it says nothing.
    public enum Report: Equatable, Sendable {
        /// The broker could not be reached at start (the first failure only).
        case cannotConnect(reason: String)
        /// The connection went away (the first failure after it was up).
        case lost(reason: String)
        /// The first connection.
        case connected
        /// A connection after an outage: how many attempts failed and for how long it was down.
        case reconnected(failedAttempts: Int, seconds: Double)
    }

    /// The broker accepted the connection: the wait starts again at `shortest`.
    public mutating func connected(at now: Double) -> Report {
        defer {
            failures = 0
            delay = shortest
            outageStart = nil
            everConnected = true
        }
        guard everConnected || failures > 0 else { return .connected }
        return .reconnected(failedAttempts: failures, seconds: max(0, now - (outageStart ?? now)))
    }

    /// An attempt failed or the connection went away. Returns the wait before the next attempt and
    /// the report, which is non-nil only for the first failure of an outage.
    public mutating func failed(reason: String, at now: Double) -> (wait: Double, report: Report?) {
        let first = outageStart == nil && failures == 0
        if outageStart == nil { outageStart = now }
        failures = failures == Int.max ? failures : failures + 1
        let wait = delay
        delay = min(longest, delay * 2)
        guard first else { return (wait, nil) }
        return (wait, everConnected ? .lost(reason: reason) : .cannotConnect(reason: reason))
    }
}
