import CLinux
import Glibc

/// A one-shot CLOCK_MONOTONIC timer the event loop polls (idle timeout, slideshow, frame pacing).
public final class TimerFD {
    private let descriptor: OwnedDescriptor

    public init() throws {
        descriptor = OwnedDescriptor(rawValue: try systemCall("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }, name: "timerfd")
    }

    public func close() { try? descriptor.close() }

    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Fires once at `deadline` (seconds on MonotonicClock); a deadline in the past fires at once.
    public func arm(at deadline: Double) throws {
        let d = max(deadline, 1e-9)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(d)
        spec.it_value.tv_nsec = max(1, Int((d - Double(Int(d))) * 1e9))
        try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    public func disarm() throws {
        var spec = itimerspec()
        try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor, 0, &spec, nil) }
    }

    /// Consumes the expiry so poll stops reporting it.
    public func drain() {
        var expirations: UInt64 = 0
        _ = try? systemCall("read timerfd") { read(fileDescriptor, &expirations, 8) }
    }
}
