import Foundation

extension EvemuRecording {
    /// Reads a recording from a file. A `.events` file without a device description (evemu's old
    /// split format) gets it from the `.desc` file next to it: for `Panel.tap.events` that is
    /// `Panel.tap.desc`, else `Panel.desc`.
    public static func load(path: String) throws -> EvemuRecording {
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
        throw EvemuFileError(path: path, reason: "events without a device description, and no .desc file next to it")
    }

    private static func readText(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EvemuFileError(path: path, reason: "cannot read the file")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A recording file that could not be read.
public struct EvemuFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

private extension String {
    /// Whether the text describes a device (has `B:` or `A:` lines), not only events.
    var hasHeader: Bool {
        split(separator: "\n").contains { $0.hasPrefix("B:") || $0.hasPrefix("A:") }
    }
}
