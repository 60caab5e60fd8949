#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the config file: the one piece of I/O in this module.
enum TextFile {
    enum Failure: Error {
        case missing
        case system(call: String, errno: Int32)
        case notUTF8

        var message: String {
            switch self {
            case .missing: return "cannot open: no such file"
            case .system(let call, let code): return "\(call): \(String(cString: strerror(code))) (errno \(code))"
            case .notUTF8: return "not UTF-8 text"
            }
        }
    }

    static func contents(atPath path: String) -> Result<String, Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(errno == ENOENT ? .missing : .system(call: "open", errno: errno))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(call: "read", errno: errno))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return .failure(.notUTF8) }
        return .success(text)
    }
}
