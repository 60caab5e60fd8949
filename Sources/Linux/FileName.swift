import Glibc

/// File names are bytes (SPEC §4): a name that is not valid UTF-8 must still be opened. Paths are
/// Strings everywhere in Vitrine, so a byte that is not part of valid UTF-8 is kept in the String
/// as a private-use scalar, U+EF80 + (byte - 0x80), and given back as that byte when the path goes
/// to the kernel (`withPath`). Valid UTF-8 of U+EF80...U+EFFF itself is kept byte by byte the
/// same way, so every name goes there and back unchanged. The log shows such bytes as \xNN
/// (`LogLine.escaped`).
public enum FileName {
    private static let base: UInt32 = 0xEF00
    private static let escapes: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// The name or path held in `bytes` (no NUL), as a String that `bytes(of:)` turns back into them.
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
        if let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: { escapes.contains($0.value) }) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let lead = bytes[i]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0
            if length > 0, i + length <= bytes.endIndex,
               let one = String(validating: bytes[i..<(i + length)], as: UTF8.self),
               let scalar = one.unicodeScalars.first, !escapes.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(lead))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` stands for. Almost every path holds no escaped byte, and is its UTF-8 as
    /// it is: one pass to check, one copy (a String per scalar made this a sixth of a library scan).
    public static func bytes(of path: String) -> [UInt8] {
        if !path.unicodeScalars.contains(where: { escapes.contains($0.value) }) { return Array(path.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = rawByte(scalar) { out.append(byte) } else { out += Array(String(scalar).utf8) }
        }
        return out
    }

    /// The byte a scalar of `string(_:)` stands for, when it stands for one.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        escapes.contains(scalar.value) ? UInt8(scalar.value - base) : nil
    }

    /// Calls `body` with `path` as the NUL-terminated bytes the kernel takes.
    public static func withPath<Result, Failure: Error>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var bytes = bytes(of: path).map { CChar(bitPattern: $0) }
        bytes.append(0)
        let result: Swift.Result<Result, Failure> = bytes.withUnsafeBufferPointer { buffer in
            do throws(Failure) { return .success(try body(buffer.baseAddress!)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The names in the folder at `path` (without "." and ".."), each with its kind when readdir
    /// tells it is a regular file or a folder (nil: ask stat). Fails with what is wrong with the
    /// folder: not a folder (a regular file, a character device, ...), or opendir's errno (EACCES).
    public static func list(_ path: String) throws(SystemError) -> [(name: String, kind: FileKind?)] {
        let folder = try withPath(path) { (cPath) throws(SystemError) in
            do throws(SystemError) {
                return try systemCallPointer("opendir", path: path) { opendir(cPath) }
            } catch where error.errno == .notDirectory {
                var info = stat()
                guard stat(cPath, &info) == 0 else { throw error }
                throw SystemError("opendir", path: path, reason: .notDirectory(FileKind(mode: info.st_mode)))
            }
        }
        defer { closedir(folder) }
        var names: [(name: String, kind: FileKind?)] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw SystemError("readdir", path: path, errno: .init(rawValue: errno)) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                string(raw.prefix { $0 != 0 }.map { $0 })
            }
            if name == "." || name == ".." { continue }
            let type = entry.pointee.d_type
            let kind: FileKind? = type == UInt8(DT_REG) ? .regular : type == UInt8(DT_DIR) ? .directory : nil
            names.append((name, kind))
        }
    }

    /// `path` with every symbolic link, "." and ".." resolved (realpath(3)), e.g. a
    /// /dev/input/by-id/ link to the /dev/input/eventN it names.
    public static func resolved(_ path: String) throws(SystemError) -> String {
        let resolved = try withPath(path) { (cPath) throws(SystemError) in
            try systemCallPointer("realpath", path: path) { realpath(cPath, nil) }
        }
        defer { free(resolved) }
        return string(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }

    /// The kernel's numbered device nodes in `folder` as paths, in numeric order: "card0",
    /// "card1", "card10" for `prefix` "card". A folder that does not exist holds none (no driver
    /// has made one yet: /dev/dri before the GPU's module loads); any other failure is thrown,
    /// naming the folder (EACCES, not a folder).
    public static func numberedNodes(in folder: String, prefix: String) throws(SystemError) -> [String] {
        let names: [String]
        do throws(SystemError) {
            names = try list(folder).map(\.name)
        } catch where error.errno == .noSuchFileOrDirectory {
            return []
        }
        return numbered(names, prefix: prefix).map { folder + "/" + $0 }
    }

    /// The names that are `prefix` followed by decimal digits only, in numeric order ("event2"
    /// before "event10"; "event-1", "event+1" and "events" are not such names).
    public static func numbered(_ names: [String], prefix: String) -> [String] {
        let numbered = names.compactMap { name -> (number: Int, name: String)? in
            guard name.hasPrefix(prefix) else { return nil }
            let digits = name.utf8.dropFirst(prefix.utf8.count)
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return (digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }, name)
        }
        return numbered.sorted { ($0.number, $0.name) < ($1.number, $1.name) }.map(\.name)
    }
}
