import CLinux

/// The niceness of the calling thread (Linux schedules threads one by one). Helper threads that
/// must never slow the frame loop (the remote server's) run nicer than it.
public enum ThreadPriority {
    /// Raises the calling thread's niceness to `nice` (an unprivileged thread can only raise it).
    public static func setCurrentThreadNice(_ nice: Int32) throws(SystemError) {
        _ = try systemCall("setpriority") { vitrine_set_thread_nice(nice) }
    }
}
