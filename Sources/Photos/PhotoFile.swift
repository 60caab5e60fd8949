import Foundation
import Linux

/// A photo file opened for reading through the Linux layer (a regular file, bounded reads), with
/// its errors as PhotoErrors naming the file. Its user closes it.
final class PhotoFile {
    /// SPEC §4's default for photos.max_file_megabytes: a larger file is skipped.
    static let maxBytes = 200 << 20

    let path: String
    let size: Int
    let modified: Date
    private let file: RegularFile

    init(path: String) throws {
        self.path = path
        file = try Self.unreadable(path) { () throws(SystemError) in try RegularFile(path: path) }
        size = file.size
        modified = Date(timeIntervalSince1970: Double(file.modifiedNanoseconds) / 1e9)
    }

    func close() { file.close() }

    /// Up to `count` bytes from the start of the file (fewer if the file is shorter or shrinks).
    func readPrefix(_ count: Int) throws -> [UInt8] {
        try Self.unreadable(path) { () throws(SystemError) in try file.readPrefix(count) }
    }

    func readAll() throws -> [UInt8] {
        try Self.unreadable(path) { () throws(SystemError) in try file.readAll(limit: Self.maxBytes) }
    }

    private static func unreadable<T>(_ path: String, _ body: () throws(SystemError) -> T) throws(PhotoError) -> T {
        do {
            return try body()
        } catch {
            throw PhotoError(path: path, reason: .unreadable(error))
        }
    }
}
