/// A bounded piece of text read from outside (a config value, a recording's line, a request's field)
/// as a message quotes it: whole when short, else its start and end with the cut said in between,
/// so that a 50 MB line makes a message of a few hundred bytes and the reader still sees where the
/// cut is and how much went. The end is kept because that is where a file's name or a line's last
/// field is.
public struct Excerpt: CustomStringConvertible, Sendable {
    /// About what a person reads in a log line; SPEC §6 promises no more of any outside input.
    public static let defaultLimit = 200

    public let description: String

    /// Room for the marker: a text no longer than the limit and this is left whole, so that an
    /// excerpt quoted again is the same excerpt.
    static let markerBytes = 32

    /// `text`, or at most `limit` of its UTF-8 bytes (cut on character boundaries) around a
    /// "…[N bytes cut]…" marker. Linear in the kept part, not in `text`'s length.
    public init(_ text: some StringProtocol, limit: Int = Excerpt.defaultLimit) {
        let utf8 = text.utf8
        let limit = max(limit, 8)
        guard utf8.count > limit + Excerpt.markerBytes else {
            description = String(text)
            return
        }
        let headBytes = limit * 3 / 4
        let tailBytes = limit - headBytes
        let scalars = text.unicodeScalars
        var headEnd = scalars.startIndex
        var taken = 0
        for scalar in scalars {
            let width = UTF8.width(scalar)
            if taken + width > headBytes { break }
            taken += width
            headEnd = scalars.index(after: headEnd)
        }
        var tailStart = scalars.endIndex
        var tailTaken = 0
        while tailStart > headEnd {
            let previous = scalars.index(before: tailStart)
            let width = UTF8.width(scalars[previous])
            if tailTaken + width > tailBytes { break }
            tailTaken += width
            tailStart = previous
        }
        let cut = utf8.count - taken - tailTaken
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[..<headEnd])
        kept.append(contentsOf: "…[\(cut) bytes cut]…".unicodeScalars)
        kept.append(contentsOf: scalars[tailStart...])
        description = String(kept)
    }
}
