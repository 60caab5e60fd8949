/// Line breaking for captions, on plain values: paragraphs of items (a cluster of characters that
/// stays together, with its width), cut into lines no wider than `maxWidth`, at most `maxLines` of
/// them; when the text does not fit, the last line ends with an ellipsis.
///
/// A line breaks after the last item that allows it (a space, a hyphen, between CJK characters)
/// and before the item that would overflow; a word wider than a whole line is cut where it
/// overflows. Spaces at the end of a line hang past the edge and are not part of the line; spaces
/// at the start of the next one are dropped.
public enum CaptionLayout {
    public struct Item: Equatable, Sendable {
        public var width: Int
        public var canBreakAfter: Bool
        public var isSpace: Bool

        public init(width: Int, canBreakAfter: Bool = false, isSpace: Bool = false) {
            self.width = width
            self.canBreakAfter = canBreakAfter
            self.isSpace = isSpace
        }
    }

    public struct Line: Equatable, Sendable {
        /// Which paragraph, and which of its items (trailing spaces left out).
        public var paragraph: Int
        public var items: Range<Int>
        /// The text went on past this line: an ellipsis follows its items.
        public var ellipsis: Bool

        public init(paragraph: Int, items: Range<Int>, ellipsis: Bool = false) {
            self.paragraph = paragraph
            self.items = items
            self.ellipsis = ellipsis
        }
    }

    public static func lines(paragraphs: [[Item]], maxWidth: Int, maxLines: Int, ellipsisWidth: Int) -> [Line] {
        let maxLines = max(1, maxLines)
        var lines: [Line] = []
        for (p, items) in paragraphs.enumerated() {
            var start = firstNonSpace(items, from: 0)
            while start < items.count {
                let end = lineEnd(items, from: start, maxWidth: maxWidth)
                lines.append(Line(paragraph: p, items: start..<trimmingSpaces(items, start..<end)))
                start = firstNonSpace(items, from: end)
            }
        }
        guard lines.count > maxLines else { return lines }
        var last = lines[maxLines - 1]
        let items = paragraphs[last.paragraph]
        var end = last.items.upperBound
        while end > last.items.lowerBound, width(items, last.items.lowerBound..<end) + ellipsisWidth > maxWidth {
            end = trimmingSpaces(items, last.items.lowerBound..<(end - 1))
        }
        last.items = last.items.lowerBound..<end
        last.ellipsis = true
        return Array(lines.prefix(maxLines - 1)) + [last]
    }

    /// Where the line starting at `start` ends (exclusive): at least one item, however wide.
    private static func lineEnd(_ items: [Item], from start: Int, maxWidth: Int) -> Int {
        var width = 0
        var lastBreak: Int?
        for i in start..<items.count {
            if !items[i].isSpace, i > start, width + items[i].width > maxWidth {
                return lastBreak ?? i
            }
            width += items[i].width
            if items[i].canBreakAfter { lastBreak = i + 1 }
        }
        return items.count
    }

    private static func firstNonSpace(_ items: [Item], from start: Int) -> Int {
        var i = start
        while i < items.count, items[i].isSpace { i += 1 }
        return i
    }

    /// The end of `range` without the spaces it ends with.
    private static func trimmingSpaces(_ items: [Item], _ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound, items[end - 1].isSpace { end -= 1 }
        return end
    }

    static func width(_ items: [Item], _ range: Range<Int>) -> Int {
        items[range].reduce(0) { $0 + $1.width }
    }
}
