import Glibc

/// The group a file belongs to, for a message that tells the user which group to join when a
/// device node refuses them (EACCES): its name from the group database ("video"), else "gid 44"
/// (a system without /etc/group). nil when the file cannot be looked at.
public enum FileGroup {
    public static func name(of path: String) -> String? {
        guard let status = try? FileStatus(path: path) else { return nil }
        return name(ofGroup: status.group) ?? "gid \(status.group)"
    }

    /// getgrgid_r, with a buffer that grows while the entry does not fit (ERANGE).
    static func name(ofGroup gid: gid_t) -> String? {
        var size = 1024
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            // The entry's strings point into the buffer: read them while it is borrowed.
            let (code, name) = buffer.withUnsafeMutableBufferPointer { bytes -> (Int32, String?) in
                var entry = group()
                var result: UnsafeMutablePointer<group>?
                let code = getgrgid_r(gid, &entry, bytes.baseAddress, bytes.count, &result)
                guard code == 0, result != nil, let name = entry.gr_name else { return (code, nil) }
                return (code, String(cString: name))
            }
            guard code == ERANGE else { return name }
            size *= 2
        }
        return nil
    }
}
