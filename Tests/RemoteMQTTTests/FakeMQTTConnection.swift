import Synchronization
@testable import RemoteMQTT

/// A broker connection that keeps what the bridge publishes and subscribes, and refuses to queue
/// while `accepting` is false (a connection that is down).
final class FakeMQTTConnection: MQTTConnection {
    private struct Record {
        var published: [MQTTMessage] = []
        var subscribed: [String] = []
        var accepting = true
        var closed = 0
    }

    private let record = Mutex(Record())

    var published: [MQTTMessage] { record.withLock { $0.published } }
    var subscribed: [String] { record.withLock { $0.subscribed } }
    var closed: Int { record.withLock { $0.closed } }

    func setAccepting(_ accepting: Bool) { record.withLock { $0.accepting = accepting } }

    func published(on topic: String) -> [MQTTMessage] { published.filter { $0.topic == topic } }

    func clear() { record.withLock { $0.published.removeAll() } }

    func close() { record.withLock { $0.closed += 1 } }

    @discardableResult
    func publish(_ message: MQTTMessage) -> Bool {
        record.withLock {
            guard $0.accepting else { return false }
            $0.published.append(message)
            return true
        }
    }

    func subscribe(topic: String) { record.withLock { $0.subscribed.append(topic) } }
}
