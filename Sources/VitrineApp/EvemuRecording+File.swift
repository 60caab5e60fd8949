import Foundation
import Linux
import Touch

extension EvemuRecording {
    /// A recording is text of a few hundred kilobytes; anything near this is not one.
    static let fileByteLimit = 64 << 20

    /// Reads a recording through the Linux layer (a regular file, bounded), so that Touch stays
    /// free of I/O. `path` is an evemu-record file, or "DEVICE.desc,EVENTS.events" for evemu's old
    /// split format; a `.events` file alone gets its device description from the `.desc` file next
    /// to it: for `Panel.tap.events` that is `Panel.tap.desc`, else `Panel.desc`.
    static func load(path: String) throws -> EvemuRecording {
        let parts = path.split(separator: ",").map(String.init)
        if parts.count == 2 {
            return try parse(description: readText(parts[0]), events: readText(parts[1]))
        }
        let text = try readText(path)
        guard path.hasSuffix(".events"), !text.hasHeader else {
            return try parse(text: text)
        }
        let directory = (path as NSString).deletingLastPathComponent
        var stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        while true {
            let candidate = (directory as NSString).appendingPathComponent(stem + ".desc")
            if FileManager.default.fileExists(atPath: candidate) {
                return try parse(description: readText(candidate), events: text)
            }
            guard let dot = stem.lastIndex(of: "."), dot != stem.startIndex else { break }
            stem = String(stem[..<dot])
        }
        throw AppError("\(path): events without a device description, and no .desc file next to it", exitCode: 2)
    }

    private static func readText(_ path: String) throws(SystemError) -> String {
        String(decoding: try RegularFile.read(path, limit: fileByteLimit), as: UTF8.self)
    }
}

private extension String {
    /// Whether the text describes a device (has `B:` or `A:` lines), not only events.
    var hasHeader: Bool {
        split(whereSeparator: \.isNewline).contains { $0.hasPrefix("B:") || $0.hasPrefix("A:") }
    }
}
