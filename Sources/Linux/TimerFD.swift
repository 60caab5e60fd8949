import CLinux
import Glibc

/// A one-shot timer the event loop polls: on CLOCK_MONOTONIC (idle timeout, slideshow, frame
/// pacing), or on the wall clock (the opening hours' next change), where the kernel also reports a
/// clock that was set (TFD_TIMER_CANCEL_ON_SET): NTP after boot on a board without a real-time
/// clock, or `date -s`.
public final class TimerFD {
    public enum Clock: Sendable {
        /// MonotonicClock's seconds.
        case monotonic
        /// WallClock's seconds since the epoch; readable at the deadline or when the clock is set.
        case wall
    }

    public let clock: Clock
    private let descriptor: OwnedDescriptor

    public init(clock: Clock = .monotonic) throws {
        self.clock = clock
        let id = clock == .monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME
        descriptor = OwnedDescriptor(rawValue: try systemCall("timerfd_create") {
            timerfd_create(id, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }, name: "timerfd")
    }

    public func close() { try? descriptor.close() }

    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Fires once at `deadline` (seconds on the timer's clock); a deadline in the past fires at once.
    public func arm(at deadline: Double) throws {
        let d = max(deadline, 1e-9)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(d)
        spec.it_value.tv_nsec = max(1, Int((d - Double(Int(d))) * 1e9))
        let flags = clock == .wall ? TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET : TFD_TIMER_ABSTIME
        try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor, Int32(flags), &spec, nil) }
    }

    public func disarm() throws {
        var spec = itimerspec()
        try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor, 0, &spec, nil) }
    }

    /// Consumes the expiry so poll stops reporting it. Returns true when a wall-clock timer was
    /// cancelled because the clock was set (read fails with ECANCELED; the timer must be armed again).
    @discardableResult
    public func drain() -> Bool {
        var expirations: UInt64 = 0
        do {
            try systemCall("read timerfd") { read(fileDescriptor, &expirations, 8) }
        } catch {
            return error.errno == .canceled
        }
        return false
    }
}
