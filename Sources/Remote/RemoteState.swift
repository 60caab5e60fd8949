import Blitter
import NIOConcurrencyHelpers
import Synchronization

/// Where the run loop and the server meet. The loop publishes a snapshot after each turn and takes
/// the queued actions and screenshot requests when the eventfd `wake` signalled wakes it; the
/// server reads the snapshot and queues. Both sides only ever hold a lock for a copy or an
/// append, and the loop's publishing only tries the snapshot's lock: the frame loop never waits
/// for the server.
public final class RemoteState: @unchecked Sendable {
    /// Actions queued beyond this are refused (503): a loop that is that far behind is stuck.
    public static let queueLimit = 32

    private let snapshot: Mutex<RemoteSnapshot>
    private let lock = NIOLock()
    private var actions: [RemoteAction] = []
    private var screenshotWaiters: [Int: CheckedContinuation<Bitmap?, Never>] = [:]
    private var nextWaiter = 0
    private var answered = 0
    private let wake: @Sendable () -> Void

    /// `wake` makes the run loop call `takeActions` and `answerScreenshots` soon (an eventfd's
    /// write); it is called from the server's threads.
    public init(version: String, wake: @escaping @Sendable () -> Void) {
        snapshot = Mutex(RemoteSnapshot(version: version))
        self.wake = wake
    }

    // MARK: - The run loop's side

    /// Replaces the snapshot unless a server thread is copying it this very moment: then nothing
    /// changes and it returns false (the loop publishes again after its next turn, a second later
    /// at most). The old snapshot is freed outside the lock.
    @discardableResult
    public func publish(_ snapshot: RemoteSnapshot) -> Bool {
        var swapped = snapshot
        return self.snapshot.withLockIfAvailable { swap(&$0, &swapped) } != nil
    }

    /// The actions queued since the last call, oldest first.
    public func takeActions() -> [RemoteAction] {
        lock.withLock {
            defer { actions.removeAll(keepingCapacity: true) }
            return actions
        }
    }

    public var wantsScreenshot: Bool { lock.withLock { !screenshotWaiters.isEmpty } }

    /// Hands the frame on screen (nil: there is none) to every waiting `/screenshot`.
    public func answerScreenshots(with frame: Bitmap?) {
        let waiters = lock.withLock {
            defer { screenshotWaiters.removeAll() }
            return Array(screenshotWaiters.values)
        }
        for waiter in waiters { waiter.resume(returning: frame) }
    }

    // MARK: - The server's side

    public func currentSnapshot() -> RemoteSnapshot { snapshot.withLock { $0 } }

    /// Requests answered since start, whatever their status (`vitrine-bench remote` stops wrk by it).
    public var requestsAnswered: Int { lock.withLock { answered } }

    func noteAnswered() { lock.withLock { answered += 1 } }

    /// Queues `action` for the loop; false when the queue is full.
    public func enqueue(_ action: RemoteAction) -> Bool {
        let taken = lock.withLock {
            guard actions.count < Self.queueLimit else { return false }
            actions.append(action)
            return true
        }
        if taken { wake() }
        return taken
    }

    /// A copy of the frame the loop composed last, or nil when there is none or the loop did not
    /// answer within `timeout` seconds.
    public func screenshot(timeout: Double) async -> Bitmap? {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        var timer: Task<Void, any Error>?
        let frame = await withCheckedContinuation { continuation in
            lock.withLock { screenshotWaiters[id] = continuation }
            // Started once the waiter is in place, so the timeout always finds it (or its answer).
            timer = Task {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                self.resumeWaiter(id, with: nil)
            }
            wake()
        }
        timer?.cancel()
        return frame
    }

    private func resumeWaiter(_ id: Int, with frame: Bitmap?) {
        let waiter = lock.withLock { screenshotWaiters.removeValue(forKey: id) }
        waiter?.resume(returning: frame)
    }
}
