import DRM
import Linux

/// How the field tools (`vitrine displays`, `vitrine inputs`) say that a device node refused them.
enum FieldAccess {
    /// The error as one line. Permission denied names the group the node belongs to (from the
    /// file itself; `usualGroup` when it cannot be looked at), since that is the group to join.
    static func explain(_ error: Error, path: String, usualGroup: String) -> String {
        let refused: String?
        switch error {
        case DRMError.permissionDenied(let deniedPath):
            refused = deniedPath.isEmpty ? path : deniedPath
        case let error as SystemError where error.errno == .permissionDenied:
            refused = error.path ?? path
        default:
            refused = nil
        }
        guard let refused else { return "\(error)" }
        return permissionDenied(refused, group: FileGroup.name(of: refused) ?? usualGroup)
    }

    static func permissionDenied(_ path: String, group: String) -> String {
        "permission denied (EACCES) on \(LogLine.escaped(path)), which belongs to group \(group): add the user to group \(group), or run as root"
    }
}
