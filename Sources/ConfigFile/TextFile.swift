import Linux

/// Reading the config file through the Linux layer: the one piece of I/O in this module. The file
/// must be a regular file of at most 1 MB (SPEC §5).
enum TextFile {
    static let byteLimit = 1 << 20

    enum Failure: Error {
        case system(SystemError)
        case notUTF8

        /// No file there: the default config may be missing.
        var isMissing: Bool {
            if case .system(let error) = self { return error.errno == .noSuchFileOrDirectory }
            return false
        }

        var message: String {
            switch self {
            case .system where isMissing: return "cannot open: no such file"
            case .system(let error): return error.descriptionWithoutPath
            case .notUTF8: return "not UTF-8 text"
            }
        }
    }

    static func contents(atPath path: String) -> Result<String, Failure> {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: byteLimit)
        } catch {
            return .failure(.system(error))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return .failure(.notUTF8) }
        return .success(text)
    }
}
