/// When the client tries the broker again, and what of its ups and downs is worth a log line. Pure:
/// the client hands it what happened and the (monotonic) time, and carries out what it says.
///
/// The wait doubles from `shortest` to `longest` with each failure in a row, and a connection that
/// drops before it has been up `stableAfter` seconds counts as one more failure: only a connection
/// that held starts the waits again at `shortest`. A broker that accepts each connection and drops
/// it at once (a flapping one, or a second kiosk with the same client id) is tried once a minute,
/// not once a second.
///
/// What the log says: the first failure of a trouble (the loss, or the start without a broker), the
/// connection that ends it, and when connections keep dropping, one line with the count at once and
/// then at most every `summaryPeriod`; and that they hold again. A kiosk whose broker is away for a
/// week logs two lines, one that flaps all week about seven hundred, not a million.
public struct ReconnectSchedule: Equatable, Sendable {
    /// The first wait after a failure, in seconds; each failure in a row doubles it up to `longest`.
    public var shortest: Double
    public var longest: Double
    /// How long a connection must stay up before it counts as held (seconds).
    public var stableAfter: Double
    /// Losses after the first of a trouble are logged together at most this often (seconds).
    public var summaryPeriod: Double

    /// The wait after the next failure.
    public private(set) var delay: Double
    /// Failed attempts and short-lived connections since the last connection that held.
    public private(set) var failures = 0
    /// Whether the client was ever connected: a first failure then is a loss, not a start.
    public private(set) var everConnected = false
    /// When the current connection came up; nil while down.
    public private(set) var connectedAt: Double?
    /// The current trouble, from its first failure to the connection that holds; nil while none.
    public private(set) var trouble: Trouble?

    /// A run of failures and dropped connections, reported as one.
    public struct Trouble: Equatable, Sendable {
        /// The first failure.
        public var start: Double
        /// Connections lost in it (the first loss included).
        public var losses = 0
        /// Losses after the first not yet in a log line, and when the last line about them was.
        public var lossesUnreported = 0
        public var lastSummary: Double?
        /// Whether a connection in it was reported (only the first is).
        public var reconnectReported = false
    }

    public init(shortest: Double = 1, longest: Double = 60, stableAfter: Double = 30, summaryPeriod: Double = 900) {
        self.shortest = max(0, shortest)
        self.longest = max(self.shortest, longest)
        self.stableAfter = max(0, stableAfter)
        self.summaryPeriod = max(0, summaryPeriod)
        delay = self.shortest
    }

    /// What the log says about an event; nil when it says nothing.
    public enum Report: Equatable, Sendable {
        /// The broker could not be reached at start (the first failure only).
        case cannotConnect(reason: String)
        /// The connection went away (the first loss of a trouble).
        case lost(reason: String)
        /// Connections went away again in the same trouble: `times` in the `seconds` since the last
        /// line about it (or since the trouble began).
        case lostAgain(reason: String, times: Int, seconds: Double)
        /// The first connection.
        case connected
        /// The first connection of a trouble: how many attempts failed and for how long it was down.
        case reconnected(failedAttempts: Int, seconds: Double)
        /// A connection held `stableAfter` seconds after a trouble in which connections kept
        /// dropping: `losses` of them over `seconds`.
        case stable(losses: Int, seconds: Double)
    }

    /// The broker accepted the connection. The waits start again only once it has held
    /// (`connectionHeld`, or a loss after `stableAfter`).
    public mutating func connected(at now: Double) -> Report? {
        connectedAt = now
        defer { everConnected = true }
        guard var current = trouble else { return everConnected ? nil : .connected }
        guard !current.reconnectReported else { return nil }
        current.reconnectReported = true
        trouble = current
        return .reconnected(failedAttempts: failures, seconds: max(0, now - current.start))
    }

    /// Called while connected (the client does at each turn of its loop): once the connection has
    /// held `stableAfter` seconds the trouble is over and the waits start again at `shortest`.
    /// Reports that only when connections had kept dropping (the reconnect said the rest).
    public mutating func connectionHeld(at now: Double) -> Report? {
        guard let since = connectedAt, now - since >= stableAfter else { return nil }
        let ended = trouble
        delay = shortest
        failures = 0
        trouble = nil
        guard let ended, ended.losses > 1 else { return nil }
        return .stable(losses: ended.losses, seconds: max(0, now - ended.start))
    }

    /// An attempt failed or the connection went away. Returns the wait before the next attempt and
    /// the report, if this one is worth a line.
    public mutating func failed(reason: String, at now: Double) -> (wait: Double, report: Report?) {
        var report: Report?
        if connectedAt != nil {
            // A connection that held ends any trouble before this loss starts a new one.
            _ = connectionHeld(at: now)
            connectedAt = nil
            report = lost(reason: reason, at: now)
        } else if trouble == nil {
            trouble = Trouble(start: now)
            report = everConnected ? .lost(reason: reason) : .cannotConnect(reason: reason)
        }
        failures = failures == Int.max ? failures : failures + 1
        let wait = delay
        delay = min(longest, delay * 2)
        return (wait, report)
    }

    /// A connection went away: the first loss of a trouble is reported with its reason, the next
    /// ones counted into one line at once and then one at most every `summaryPeriod`.
    private mutating func lost(reason: String, at now: Double) -> Report? {
        guard var current = trouble else {
            var fresh = Trouble(start: now)
            fresh.losses = 1
            trouble = fresh
            return .lost(reason: reason)
        }
        defer { trouble = current }
        // A trouble that began without a broker: its first loss is news.
        guard current.losses > 0 else {
            current.losses = 1
            return .lost(reason: reason)
        }
        current.losses = current.losses == Int.max ? current.losses : current.losses + 1
        current.lossesUnreported = current.lossesUnreported == Int.max ? current.lossesUnreported : current.lossesUnreported + 1
        if let last = current.lastSummary, now - last < summaryPeriod { return nil }
        let times = current.lossesUnreported, since = current.lastSummary ?? current.start
        current.lossesUnreported = 0
        current.lastSummary = now
        return .lostAgain(reason: reason, times: times, seconds: max(0, now - since))
    }
}
