import Foundation
import Glibc

/// A plain HTTP/1.1 client on 127.0.0.1 for the tests of the remote server: one blocking request
/// with "Connection: close", answered with its status code and body.
public enum LoopbackHTTP {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func exchange(_ port: Int, _ request: String) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port): errno \(errno)") }
        let bytes = Array(request.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw Failure(description: "write: errno \(errno)") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        let text = String(decoding: reply, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return (status, body)
    }

    public static func get(_ port: Int, _ path: String) throws -> (status: Int, body: String) {
        try exchange(port, "GET \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
    }

    /// A loopback port free a moment ago (the kernel's pick for a socket bound to port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    fileprivate static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

extension LoopbackHTTP {
    /// One blocking TCP connection to 127.0.0.1:`port` from the loopback address `source`
    /// (127.0.0.2 is another client to the server), for the tests of slow and hostile clients.
    public final class Connection {
        public let fd: Int32

        /// Reads give up after `timeout` seconds (then `readToEnd` says so).
        public init(port: Int, from source: String = "127.0.0.1", timeout: Int = 10) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
            var time = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            var local = loopback(0, source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw Failure(description: "bind to \(source): errno \(errno)") }
            var address = loopback(port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(fd); throw Failure(description: "connect to port \(port): errno \(errno)") }
        }

        deinit { close(fd) }

        public func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
                throw Failure(description: "send: errno \(errno)")
            }
        }

        public enum End: Equatable {
            /// The server closed the connection (end of file or a reset).
            case closed
            /// Nothing more came within the read timeout and the connection is still open.
            case timedOut
        }

        /// Everything the server sends until it closes the connection or the timeout passes.
        public func readToEnd() -> (text: String, end: End) {
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 {
                    reply += buffer[0..<n]
                    continue
                }
                let timedOut = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
                return (String(decoding: reply, as: UTF8.self), timedOut ? .timedOut : .closed)
            }
        }

        /// Reads until the text holds a whole answer with a Content-Length body; the answer so far.
        public func readAnswer() -> String {
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let text = String(decoding: reply, as: UTF8.self)
                if let split = text.range(of: "\r\n\r\n") {
                    let head = text[..<split.lowerBound].lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    if text.utf8.count - text[..<split.upperBound].utf8.count >= length { return text }
                }
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { return text }
                reply += buffer[0..<n]
            }
        }
    }

    fileprivate static func loopback(_ port: Int, _ host: String) -> sockaddr_in {
        var address = loopback(port)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
}
