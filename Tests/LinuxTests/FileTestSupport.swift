import Foundation
import Glibc

/// A fresh folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init(_ name: String) throws {
        path = NSTemporaryDirectory() + "vitrine-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, sorted (temporaries included: they start with a dot).
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
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
