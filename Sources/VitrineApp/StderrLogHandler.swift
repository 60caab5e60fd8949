import Linux
import Synchronization
import Logging

/// One line per event on stderr: "vitrine[<level>]: message key=value". systemd's journal adds the
/// time and the unit, so the line carries neither; no colour, whatever the terminal. The message and
/// the metadata are escaped (`LogLine.escaped`, the metadata cut to excerpts), so nothing in them (a file name) can start a line
/// of its own or send escape codes; the line goes out with write(2) and is dropped when it cannot
/// be written (a full disk, a closed stderr, a full non-blocking pipe), never a crash or a wait.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String

    public init(label: String, level: Logger.Level = .info) {
        self.label = label
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = "\(label)[\(event.level)]: \(LogLine.escapedWhole("\(event.message)"))"
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(LogLine.escaped(key))=\(LogLine.escaped("\(value)"))"
        }
        line += "\n"
        LogLine.write(line)
    }

    /// Installs this handler for every Logger the process makes. swift-log allows one bootstrap per
    /// process, so later calls (SIGHUP's reload, tests) only change the level.
    public static func bootstrap(level: Logger.Level) {
        state.withLock { state in
            state.level = level
            guard !state.installed else { return }
            state.installed = true
            LoggingSystem.bootstrap { label in
                StderrLogHandler(label: label, level: StderrLogHandler.state.withLock { $0.level })
            }
        }
    }

    private static let state = Mutex(BootstrapState())

    private struct BootstrapState {
        var installed = false
        var level = Logger.Level.info
    }
}
