import CLinux
import Glibc

/// The signals `vitrine run` takes through its signalfd (SIGTERM and SIGINT stop it, SIGHUP
/// reloads). `vitrine` blocks them before any of its code runs (CEarlySignals' entry in the
/// executable's DT_PREINIT_ARRAY, called by the dynamic loader before the shared libraries'
/// initialisers and the Swift runtime): until the signalfd is open they wait, pending, instead of
/// killing the kiosk with their default action (a SIGHUP sent by a deploy script right after start
/// would end it with a status systemd counts as clean). The set itself is CLinux's (signals.c),
/// read here once: this is the one Swift place that names it. Threads inherit the mask of the
/// thread that creates them, so every thread started later has them blocked too, which is what
/// signalfd needs. The other commands give them back their default at once.
public enum ProcessSignals {
    public static let kiosk: [Int32] = (0..<vitrine_kiosk_signal_count()).map { vitrine_kiosk_signal($0) }

    /// Blocks `signals` in the calling thread (at start: the only one). Cannot fail for valid
    /// signal numbers.
    public static func block(_ signals: [Int32] = kiosk) {
        var set = self.set(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Gives `signals` their default action and unblocks them: for a command a person runs and
    /// stops with Ctrl-C. One that arrived while blocked takes effect now.
    public static func restoreDefault(_ signals: [Int32] = kiosk) {
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        var set = self.set(signals)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether `signal` is blocked in the calling thread.
    public static func isBlocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    private static func set(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
