import Blitter
import Synchronization

/// Where the run loop and the transports (HTTP, MQTT next) meet. The loop publishes a snapshot after
/// each turn and takes the queued actions and screenshot requests when `wake` (its eventfd) wakes it;
/// a transport reads the snapshot, submits actions and waits for screenshots, on threads of its own.
/// Both sides only ever hold a lock for a copy or an append, and the loop's publishing only tries the
/// snapshot's lock: the frame loop never waits for a transport.
public final class RemoteState: Sendable {
    /// Actions queued beyond this are refused: a loop that is that far behind is stuck.
    public static let queueLimit = 32

    private struct Queue {
        var actions: [RemoteAction] = []
        var screenshotWaiters: [Int: CheckedContinuation<Bitmap?, Never>] = [:]
        var nextWaiter = 0
        var answered = 0
    }

    private let snapshot: Mutex<RemoteSnapshot>
    private let queue = Mutex(Queue())
    private let wake: @Sendable () -> Void

    /// `wake` makes the run loop call `takeActions` and `answerScreenshots` soon (an eventfd's
    /// write); it is called from the transports' threads.
    public init(version: String, wake: @escaping @Sendable () -> Void) {
        snapshot = Mutex(RemoteSnapshot(version: version))
        self.wake = wake
    }

    // MARK: - The run loop's side

    /// Replaces the snapshot unless a transport's thread is copying it this very moment: then
    /// nothing changes and it returns false (the loop publishes again after its next turn, a second
    /// later at most). The old snapshot is freed outside the lock.
    @discardableResult
    public func publish(_ snapshot: RemoteSnapshot) -> Bool {
        var swapped = snapshot
        return self.snapshot.withLockIfAvailable { swap(&$0, &swapped) } != nil
    }

    /// The actions queued since the last call, oldest first.
    public func takeActions() -> [RemoteAction] {
        queue.withLock { queue in
            defer { queue.actions.removeAll(keepingCapacity: true) }
            return queue.actions
        }
    }

    public var wantsScreenshot: Bool { queue.withLock { !$0.screenshotWaiters.isEmpty } }

    /// Hands the frame on screen (nil: there is none) to every waiting screenshot.
    public func answerScreenshots(with frame: Bitmap?) {
        let waiters = queue.withLock { queue in
            defer { queue.screenshotWaiters.removeAll() }
            return Array(queue.screenshotWaiters.values)
        }
        for waiter in waiters { waiter.resume(returning: frame) }
    }

    // MARK: - The transports' side

    public func currentSnapshot() -> RemoteSnapshot { snapshot.withLock { $0 } }

    /// Requests answered since start, whatever their status (`vitrine-bench remote` stops wrk by it).
    public var requestsAnswered: Int { queue.withLock { $0.answered } }

    public func noteAnswered() { queue.withLock { $0.answered += 1 } }

    /// An action as any transport receives it (JSON `{"action": "open", "index": 3}`): parsed,
    /// checked against the kiosk as last published, and queued for the loop; or why not.
    public func submit(json: [UInt8]) -> Result<RemoteAction, RemoteRequestError> {
        let snapshot = currentSnapshot()
        return RemoteAction.parse(json: json, photoCount: snapshot.photoCount).flatMap { action in
            if let refusal = action.refusal(in: snapshot) { return .failure(refusal) }
            guard enqueue(action) else {
                return .failure(.unavailable("\(Self.queueLimit) actions are waiting already"))
            }
            return .success(action)
        }
    }

    /// Queues `action` for the loop; false when the queue is full.
    public func enqueue(_ action: RemoteAction) -> Bool {
        let taken = queue.withLock {
            guard $0.actions.count < Self.queueLimit else { return false }
            $0.actions.append(action)
            return true
        }
        if taken { wake() }
        return taken
    }

    /// A copy of the frame the loop composed last, or nil when there is none or the loop did not
    /// answer within `timeout` seconds.
    public func screenshot(timeout: Double) async -> Bitmap? {
        let id = queue.withLock {
            $0.nextWaiter += 1
            return $0.nextWaiter
        }
        var timer: Task<Void, any Error>?
        let frame = await withCheckedContinuation { continuation in
            queue.withLock { $0.screenshotWaiters[id] = continuation }
            // Started once the waiter is in place, so the timeout always finds it (or its answer).
            timer = Task {
                // NaN, negative or past a year: no trap on the conversion.
                let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), 365 * 86400)
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                self.resumeWaiter(id, with: nil)
            }
            wake()
        }
        timer?.cancel()
        return frame
    }

    private func resumeWaiter(_ id: Int, with frame: Bitmap?) {
        let waiter = queue.withLock { $0.screenshotWaiters.removeValue(forKey: id) }
        waiter?.resume(returning: frame)
    }
}
