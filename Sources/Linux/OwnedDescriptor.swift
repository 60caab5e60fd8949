import Glibc
import SystemPackage

/// A file descriptor this program opened and must close: exactly once, by `close()`, which its
/// owner calls from its own `close()` (the mirror of its set-up). One still open at deinit is a
/// leak its owner's caller made: it asserts in debug builds, as NIO's BaseSocket does, and is
/// closed quietly in release builds, so that nothing leaks on a kiosk.
public final class OwnedDescriptor {
    /// What the descriptor is ("eventfd", "/dev/dri/card0"), for errors and the assertion.
    public let name: String
    private var descriptor: FileDescriptor?

    public init(_ descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Takes over a descriptor a C call returned.
    public convenience init(rawValue: Int32, name: String) {
        self.init(FileDescriptor(rawValue: rawValue), name: name)
    }

    deinit {
        guard let descriptor else { return }
        assertionFailure("\(name) (descriptor \(descriptor.rawValue)) was not closed")
        _ = Glibc.close(descriptor.rawValue)
    }

    /// The descriptor, or -1 once closed.
    public var rawValue: Int32 { descriptor?.rawValue ?? -1 }
    public var isOpen: Bool { descriptor != nil }

    /// Closes it; later calls do nothing. Never retried: Linux releases the descriptor even when
    /// close(2) reports EINTR or EIO, and the error only says that data may be lost.
    public func close() throws(SystemError) {
        guard let descriptor else { return }
        self.descriptor = nil
        try Self.close(descriptor.rawValue, name: name, using: Glibc.close)
    }

    /// close(2) once, whatever it returns (`using` is close(2) but in tests).
    static func close(_ descriptor: Int32, name: String, using close: (Int32) -> Int32) throws(SystemError) {
        try systemCall("close", path: name, retryOnInterrupt: false) { close(descriptor) }
    }
}
