import Foundation
import Linux

/// A photo file as the library scan read it: its size and modification time. A decode reads only
/// that version (`PhotoDecoder.decode(version:)`): a file written again under its own name since
/// the scan (rclone 1.60, `cp`, `rsync --inplace`) is half the new photo until its writer is done,
/// and the folder watch's rescan lists the new version once it is.
public struct FileVersion: Hashable, Sendable, CustomStringConvertible {
    public let size: Int
    public let modified: Date

    public init(size: Int, modified: Date) {
        self.size = size
        self.modified = modified
    }

    /// The same conversion as the scan's (`PhotoFile.modified`), so that equal times compare equal.
    public init(size: Int, modified: FileTime) {
        self.init(size: size, modified: Date(timeIntervalSince1970: modified.secondsSinceEpoch))
    }

    public var description: String { "\(size) bytes, modified \(modified.timeIntervalSince1970)" }
}
