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
        // A config number: a megabyte count past what Int holds in bytes is no limit at all.
        let (bytes, overflow) = max(0, maxMegabytes).multipliedReportingOverflow(by: 1 << 20)
        maxBytes = overflow ? Int.max : bytes
        file = try Self.unreadable(path) { () throws(SystemError) in try opener.open(path) }
        size = file.size
        guard size <= maxBytes else {
            file.close()
            throw PhotoError(path: path, reason: .fileTooLarge(bytes: size, maxMegabytes: maxMegabytes))
        }
        modified = Date(timeIntervalSince1970: file.modified.secondsSinceEpoch)
    }

    convenience init(path: String, options: DecodeOptions) throws(PhotoError) {
        try self.init(path: path, maxMegabytes: options.maxFileMegabytes, opener: options.files)
    }

    func close() { file.close() }

    /// The file as opened: what the library scan records, and what a decode checks.
    var version: FileVersion { FileVersion(size: size, modified: modified) }

    /// Up to `count` bytes from the start of the file (fewer if the file is shorter or shrinks).
    func readPrefix(_ count: Int) throws(PhotoError) -> [UInt8] {
        try Self.unreadable(path) { () throws(SystemError) in try file.readPrefix(count) }
    }

    /// The file's first bytes, `start` and then more for as long as `needed` (given what was
    /// read) asks for a longer prefix: at least twice as much each time, so headers that go on
    /// past the first read cost a few reads. Stops at the file's end, or when it shrank under us.
    func readPrefix(from start: [UInt8], while needed: ([UInt8]) -> Int?) throws(PhotoError) -> [UInt8] {
        var bytes = start
        while bytes.count < size, let wanted = needed(bytes) {
            let more = try readPrefix(max(wanted, bytes.count * 2))
            guard more.count > bytes.count else { break }
            bytes = more
        }
        return bytes
    }

    /// Up to `count` bytes from `offset` on (fewer where the file ends): a box a container's index
    /// points at, without reading what lies before it.
    func read(count: Int, at offset: Int) throws(PhotoError) -> [UInt8] {
        try Self.unreadable(path) { () throws(SystemError) in try file.read(count: count, at: offset) }
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
