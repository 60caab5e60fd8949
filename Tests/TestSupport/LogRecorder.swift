import Foundation
import Logging

/// A log handler that keeps the messages, for asserting on warnings.
public final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Logger.Level, String)] = []

    public init() {}

    public var messages: [(level: Logger.Level, text: String)] { lock.withLock { entries.map { ($0.0, $0.1) } } }

    public func record(_ level: Logger.Level, _ text: String) {
        lock.withLock { entries.append((level, text)) }
    }

    public var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            recorder.record(event.level, event.message.description)
        }
    }
}
