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
    /// Returns true when the wall clock was set since this timer was last armed or read: the
    /// kernel arms it all the same but reports the change here (ECANCELED), and no read will, so
    /// the caller must work out again whatever it armed the timer for.
    @discardableResult
    public func arm(at deadline: Double) throws -> Bool {
        var spec = itimerspec()
        spec.it_value = Self.timespec(deadline)
        let flags = clock == .wall ? TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET : TFD_TIMER_ABSTIME
        do {
            try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor, Int32(flags), &spec, nil) }
        } catch {
            guard error.errno == .canceled, clock == .wall else { throw error }
            return true
        }
        return false
    }

    /// A deadline in seconds as the kernel takes it, never zero (which disarms). The deadline may
    /// come from a config duration added to the clock: NaN and anything before 1 ns are 1 ns (at
    /// once), anything past a thousand years from the epoch is that (in effect never); no trap.
    static func timespec(_ deadline: Double) -> Glibc.timespec {
        let latest = 1000 * 365.25 * 86400.0
        let d = deadline.isNaN ? 1e-9 : min(max(deadline, 1e-9), latest)
        let whole = d.rounded(.down)
        return Glibc.timespec(tv_sec: Int(whole), tv_nsec: min(999_999_999, max(1, Int((d - whole) * 1e9))))
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
