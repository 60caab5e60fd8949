import Glibc

/// The few changes Vitrine makes to the file system besides writing files (`AtomicFile`): making
/// its cache folder, removing a cache file. Errors name the call, the path and errno.
extension FileName {
    /// Makes the folder at `path` and any missing parents (mkdir -p), with `mode` (less the umask).
    /// A folder that exists already is fine; anything else with its name is an error that says
    /// what it is (mkdir's EEXIST turned into "not a folder (a regular file)").
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(SystemError) {
        guard !path.isEmpty else { throw SystemError("mkdir", path: path, errno: .noSuchFileOrDirectory) }
        var prefixes: [String] = []
        var current = ""
        for (index, component) in path.split(separator: "/", omittingEmptySubsequences: true).enumerated() {
            current += (index == 0 && !path.hasPrefix("/") ? "" : "/") + component
            prefixes.append(current)
        }
        for prefix in prefixes {
            do throws(SystemError) {
                try withPath(prefix) { (cPath) throws(SystemError) in
                    _ = try systemCall("mkdir", path: prefix) { mkdir(cPath, mode) }
                }
            } catch where error.errno == .fileExists {
                let status = try FileStatus(path: prefix)
                guard status.kind == .directory else {
                    throw SystemError("mkdir", path: prefix, reason: .notDirectory(status.kind))
                }
            }
        }
    }

    /// Removes the file (not a folder) at `path` (unlink(2)). A symbolic link goes, not what it
    /// points to.
    public static func remove(_ path: String) throws(SystemError) {
        try withPath(path) { (cPath) throws(SystemError) in
            _ = try systemCall("unlink", path: path) { unlink(cPath) }
        }
    }

    /// The process's working folder (getcwd(3)): what a relative path is relative to.
    public static func currentDirectory() throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        _ = try systemCallPointer("getcwd") { getcwd(&buffer, buffer.count) }
        return buffer.withUnsafeBufferPointer { raw in
            string(UnsafeRawBufferPointer(raw).prefix { $0 != 0 }.map { $0 })
        }
    }
}
