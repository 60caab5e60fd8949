import Foundation
import Linux

/// A photo file opened for reading through the Linux layer (a regular file, bounded reads), with
/// its errors as PhotoErrors naming the file. Its user closes it.
final class PhotoFile {
    let path: String
    /// The largest file read (photos.max_file_megabytes): a larger one is refused when opened.
    let maxBytes: Int
    let size: Int
    let modified: Date
    private let file: RegularFile

    init(path: String, maxMegabytes: Int, opener: PhotoFileOpener = .linux) throws(PhotoError) {
        self.path = path
        maxBytes = maxMegabytes << 20
        file = try Self.unreadable(path) { () throws(SystemError) in try opener.open(path) }
        size = file.size
        guard size <= maxBytes else {
            file.close()
            throw PhotoError(path: path, reason: .fileTooLarge(bytes: size, maxMegabytes: maxMegabytes))
        }
        modified = Date(timeIntervalSince1970: Double(file.modifiedNanoseconds) / 1e9)
    }

    convenience init(path: String, options: DecodeOptions) throws(PhotoError) {
        try self.init(path: path, maxMegabytes: options.maxFileMegabytes, opener: options.files)
    }

    func close() { file.close() }

    /// Up to `count` bytes from the start of the file (fewer if the file is shorter or shrinks).
    func readPrefix(_ count: Int) throws(PhotoError) -> [UInt8] {
        try Self.unreadable(path) { () throws(SystemError) in try file.readPrefix(count) }
    }

    func readAll() throws(PhotoError) -> [UInt8] {
        try Self.unreadable(path) { () throws(SystemError) in try file.readAll(limit: maxBytes) }
    }

    private static func unreadable<T>(_ path: String, _ body: () throws(SystemError) -> T) throws(PhotoError) -> T {
        do {
            return try body()
        } catch {
            throw PhotoError(path: path, reason: .unreadable(error))
        }
    }
}
