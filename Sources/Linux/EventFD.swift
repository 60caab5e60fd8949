import CLinux
import Glibc

/// A counter another thread bumps to wake the event loop (decoder completions).
public final class EventFD {
    private let descriptor: OwnedDescriptor

    public init() throws {
        descriptor = OwnedDescriptor(rawValue: try systemCall("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) },
                                     name: "eventfd")
    }

    public func close() { try? descriptor.close() }

    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Safe from any thread.
    public func signal() {
        var one: UInt64 = 1
        _ = try? systemCall("write eventfd") { write(fileDescriptor, &one, 8) }
    }

    /// Resets the counter; returns how many signals arrived since the last drain.
    @discardableResult
    public func drain() -> UInt64 {
        var count: UInt64 = 0
        let n = (try? systemCall("read eventfd") { read(fileDescriptor, &count, 8) }) ?? 0
        return n == 8 ? count : 0
    }
}
