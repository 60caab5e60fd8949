import CLinux
import Glibc
import SystemPackage

/// Delivers SIGTERM, SIGINT and SIGHUP as readable events instead of asynchronous handlers, so
/// the event loop handles them between frames like any input.
public final class SignalFD {
    private let descriptor: OwnedDescriptor
    private var mask: sigset_t

    /// Blocks `signals` for the process (call before starting threads, so they inherit the mask)
    /// and opens a descriptor that reads them.
    public init(signals: [Int32]) throws {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        let status = pthread_sigmask(SIG_BLOCK, &set, nil)
        if status != 0 { throw SystemError("pthread_sigmask", errno: Errno(rawValue: status)) }
        mask = set
        do {
            descriptor = OwnedDescriptor(rawValue: try systemCall("signalfd") { signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) },
                                         name: "signalfd")
        } catch {
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            throw error
        }
    }

    /// Closes the descriptor and unblocks the signals: the reverse of `init`.
    public func close() {
        guard descriptor.isOpen else { return }
        try? descriptor.close()
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// The signals that arrived, oldest first.
    public func read() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        let fd = descriptor.rawValue
        while let n = try? systemCall("read", path: "signalfd", { Glibc.read(fd, &info, size) }), n == size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}
