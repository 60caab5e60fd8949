import CLinux
import Glibc

/// Delivers SIGTERM, SIGINT and SIGHUP as readable events instead of asynchronous handlers, so
/// the event loop handles them between frames like any input.
public final class SignalFD {
    public let fileDescriptor: Int32
    private var mask: sigset_t

    /// Blocks `signals` for the process (call before starting threads, so they inherit the mask)
    /// and opens a descriptor that reads them.
    public init(signals: [Int32]) throws {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        let status = pthread_sigmask(SIG_BLOCK, &set, nil)
        if status != 0 { throw SystemCallError("pthread_sigmask", errno: status) }
        mask = set
        fileDescriptor = try systemCall("signalfd") { signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
    }

    deinit {
        close(fileDescriptor)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The signals that arrived, oldest first.
    public func read() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while let n = try? systemCall("read signalfd", { Glibc.read(fileDescriptor, &info, size) }), n == size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}
