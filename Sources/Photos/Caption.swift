import Foundation

/// The text shown under a photo (SPEC §10): a title, a description and the date taken, each
/// optional, and where the text came from.
public struct Caption: Equatable, Sendable {
    public enum Source: String, Equatable, Sendable {
        case sidecar, xmp, iptc, exif
        /// Only the date: the photo has no text of its own.
        case date
    }

    public var title: String?
    public var description: String?
    public var date: String?
    public var source: Source

    public init(title: String? = nil, description: String? = nil, date: String? = nil, source: Source) {
        self.title = Self.cleaned(title)
        self.description = Self.cleaned(description)
        self.date = Self.cleaned(date)
        self.source = source
    }

    /// What is drawn, each line a paragraph of its own: the title, the description, the date.
    public var paragraphs: [String] {
        [title, description, date].flatMap { text in
            text.map { $0.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) } ?? []
        }
    }

    /// How many of `paragraphs` are the title (drawn in bold).
    public var titleParagraphs: Int {
        title.map { $0.split(separator: "\n", omittingEmptySubsequences: true).count } ?? 0
    }

    /// The paragraphs on lines of their own (what the trace reports).
    public var text: String { paragraphs.joined(separator: "\n") }

    /// Surrounding white space dropped, line ends made "\n", control characters dropped (a caption
    /// never moves a cursor or forges a log line); nil when nothing is left.
    static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\t", with: " ")  // fonts have no tab glyph
        let scalars = normalised.unicodeScalars.filter { $0 == "\n" || $0.properties.generalCategory != .control }
        let result = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
        return result.isEmpty ? nil : result
    }
}
