import Foundation
import Glibc
import TestSupport

/// The names in `folder`, sorted (temporaries included: they start with a dot).
func entries(of folder: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

/// stat(2) of `path` (following links): nil if there is nothing.
func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func readBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Runs `body` on a thread of its own; `wait` returns its result.
final class Background<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value: Value?
    private(set) var threadID: pthread_t?
    private let started = DispatchSemaphore(value: 0)

    init(_ body: @escaping () -> Value) {
        let thread = Thread { [self] in
            threadID = pthread_self()
            started.signal()
            value = body()
            done.signal()
        }
        thread.start()
        started.wait()
    }

    /// The result, or nil if `body` has not returned within `seconds`.
    func wait(seconds: Double) -> Value? {
        done.wait(timeout: .now() + seconds) == .success ? value : nil
    }

    var isFinished: Bool {
        guard done.wait(timeout: .now()) == .success else { return false }
        done.signal()
        return true
    }
}
