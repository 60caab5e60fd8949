import Glibc

/// CLOCK_MONOTONIC in seconds: the clock of every animation (SPEC §2), of evdev timestamps once a
/// device is switched to it (EVIOCSCLOCKID), and of DRM page-flip events.
public enum MonotonicClock {
    public static func now() -> Double { secondsNow(on: CLOCK_MONOTONIC) }
}

/// clock_gettime of `clock` in seconds (MonotonicClock, WallClock).
func secondsNow(on clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
