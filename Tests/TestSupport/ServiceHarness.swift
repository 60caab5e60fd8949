import Foundation
import Glibc

/// systemd's end of the notify protocol: a datagram socket at `path` whose messages are collected.
public final class NotifyListener {
    public let path: String
    private let descriptor: Int32
    public private(set) var messages: [String] = []

    public init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }

    deinit { close(descriptor) }

    /// Collects messages until one satisfies `condition` (returned) or `timeout` seconds pass (nil).
    public func waitFor(timeout: Double = 20, _ condition: (String) -> Bool) -> String? {
        if let found = messages.first(where: condition) { return found }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            messages.append(message)
            if condition(message) { return message }
        }
        return nil
    }
}

/// The real executable running in the background, to be signalled and waited for.
public final class RunningProcess {
    private let process = Process()
    private let err = Pipe()
    private var errText = Data()
    private let reading = DispatchGroup()

    public init(_ arguments: [String], executable: String = TestPaths.executable, environment: [String: String] = [:],
         currentDirectory: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        reading.enter()
        let handle = err.fileHandleForReading
        Thread.detachNewThread { [self] in
            errText = handle.readDataToEndOfFile()
            reading.leave()
        }
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit (killing the process after `timeout` seconds); its status and stderr.
    public func wait(timeout: Double = 20) -> (status: Int32, stderr: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        reading.wait()
        return (process.terminationStatus, String(decoding: errText, as: UTF8.self))
    }
}
