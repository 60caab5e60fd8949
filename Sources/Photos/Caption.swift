import Foundation

/// The text shown under a photo (SPEC §10): a title, a description and the date taken, each
/// optional, and where the text came from.
///
/// Made once, when the caption is read (on a decode worker): the text is cleaned and bounded to
/// Unicode's Stream-Safe Text Format there (`StreamSafeText`), its paragraphs are cut, and it is
/// given an `identity` of its own, by which the frame loop keeps what it drew for it. Nothing the
/// frame loop does with a caption hashes, compares or normalises its text.
public struct Caption: Equatable, Sendable {
    public enum Source: String, Equatable, Sendable {
        case sidecar, xmp, iptc, exif
        /// Only the date: the photo has no text of its own.
        case date
    }

    /// Which caption this is: every caption made has its own, copies share it. Two captions
    /// with the same text read twice (the photo's file changed) have two.
    public struct Identity: Hashable, Sendable {
        let value: UInt64

        private static let lock = NSLock()
        nonisolated(unsafe) private static var last: UInt64 = 0

        static func next() -> Identity {
            lock.withLock {
                last &+= 1
                return Identity(value: last)
            }
        }
    }

    public let title: String?
    public let description: String?
    public let date: String?
    public let source: Source
    public let identity: Identity
    /// What is drawn, each line a paragraph of its own: the title, the description, the date.
    public let paragraphs: [String]
    /// How many of `paragraphs` are the title (drawn in bold).
    public let titleParagraphs: Int
    /// The paragraphs on lines of their own (what the trace reports).
    public let text: String

    public init(title: String? = nil, description: String? = nil, date: String? = nil, source: Source) {
        self.title = Self.cleaned(title)
        self.description = Self.cleaned(description)
        self.date = Self.cleaned(date)
        self.source = source
        identity = .next()
        let titleLines = Self.lines(self.title)
        titleParagraphs = titleLines.count
        paragraphs = titleLines + Self.lines(self.description) + Self.lines(self.date)
        text = paragraphs.joined(separator: "\n")
    }

    /// The same text: the identity is left out.
    public static func == (a: Caption, b: Caption) -> Bool {
        a.title == b.title && a.description == b.description && a.date == b.date && a.source == b.source
    }

    private static func lines(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: true).map { String($0) }
    }

    /// Surrounding white space dropped, line ends made "\n", tabs made spaces (fonts have no tab
    /// glyph), control characters dropped (a caption never moves a cursor or forges a log line),
    /// runs of combining marks bounded (`StreamSafeText`); nil when nothing is left. One pass over
    /// the scalars: linear in the text, whatever it holds.
    static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\r": scalars.append("\n")
            case "\n" where afterCarriageReturn: continue  // the "\n" of "\r\n" is already there
            case "\n": scalars.append("\n")
            case "\t": scalars.append(" ")
            default:
                if scalar.properties.generalCategory != .control { scalars.append(scalar) }
            }
        }
        // As Foundation's .whitespacesAndNewlines (the tab is a space by now).
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map { $0 + 1 } ?? start
        guard start < end else { return nil }
        return String(StreamSafeText.bounded(scalars[start..<end]))
    }
}
