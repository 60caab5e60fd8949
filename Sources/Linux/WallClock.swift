import Glibc

/// CLOCK_REALTIME in seconds since the epoch: what the opening hours are read against.
public enum WallClock {
    public static func now() -> Double { secondsNow(on: CLOCK_REALTIME) }

    /// Whole seconds since the epoch, as the kernel counts them (no Double to convert back).
    public static func epochSeconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }
}

/// The system's time zone through the C library: TZ if set, else /etc/localtime (tzset), with its
/// daylight-saving rules. Read once per `reload()` (at start, on SIGHUP, when the clock was set).
public enum SystemTimeZone {
    public static func reload() { tzset() }

    /// Seconds east of UTC in effect at `epoch` (localtime_r's tm_gmtoff).
    public static func utcOffset(at epoch: Int) -> Int {
        var time = time_t(epoch)
        var local = tm()
        guard localtime_r(&time, &local) != nil else { return 0 }
        return local.tm_gmtoff
    }
}
