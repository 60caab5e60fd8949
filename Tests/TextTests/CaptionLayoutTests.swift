import Testing
@testable import Text

/// Line breaking on plain values: items 10 px wide, spaces marked, breaks after spaces.
private func words(_ text: String, width: Int = 10) -> [CaptionLayout.Item] {
    text.map { c in CaptionLayout.Item(width: width, canBreakAfter: c == " ", isSpace: c == " ") }
}

private func texts(_ lines: [CaptionLayout.Line], _ paragraphs: [String]) -> [String] {
    lines.map { line in
        let characters = Array(paragraphs[line.paragraph])
        return String(characters[line.items]) + (line.ellipsis ? "…" : "")
    }
}

@Suite struct CaptionLayoutTests {
    @Test func wrapsAtSpacesAndDropsTheSpacesAtTheBreak() {
        let text = "the quick brown fox"
        let lines = CaptionLayout.lines(paragraphs: [words(text)], maxWidth: 100, maxLines: 5, ellipsisWidth: 10)
        #expect(texts(lines, [text]) == ["the quick", "brown fox"])
        #expect(lines.allSatisfy { !$0.ellipsis })
    }

    @Test func aLineMayEndInASpaceThatHangsPastTheEdge() {
        // "abcde " is 60 px with its space, and fits 50 px without it.
        let text = "abcde fgh"
        #expect(texts(CaptionLayout.lines(paragraphs: [words(text)], maxWidth: 50, maxLines: 5, ellipsisWidth: 10), [text])
            == ["abcde", "fgh"])
    }

    @Test func aWordWiderThanTheLineIsCut() {
        let text = "abcdefghij kl"
        #expect(texts(CaptionLayout.lines(paragraphs: [words(text)], maxWidth: 40, maxLines: 9, ellipsisWidth: 10), [text])
            == ["abcd", "efgh", "ij", "kl"])
    }

    @Test func eachParagraphStartsALine() {
        let paragraphs = ["title", "one two"]
        let lines = CaptionLayout.lines(paragraphs: paragraphs.map { words($0) }, maxWidth: 100, maxLines: 5, ellipsisWidth: 10)
        #expect(texts(lines, paragraphs) == ["title", "one two"])
        #expect(lines.map(\.paragraph) == [0, 1])
    }

    @Test func textPastMaxLinesEndsWithAnEllipsisThatFits() {
        let text = "aaaa bbbb cccc dddd eeee"
        let lines = CaptionLayout.lines(paragraphs: [words(text)], maxWidth: 45, maxLines: 2, ellipsisWidth: 10)
        #expect(texts(lines, [text]) == ["aaaa", "bbb…"])
        #expect(lines.last?.ellipsis == true)
        for line in lines {
            let width = line.items.count * 10 + (line.ellipsis ? 10 : 0)
            #expect(width <= 45)
        }
        // A text that fits exactly in max_lines has no ellipsis.
        let fits = CaptionLayout.lines(paragraphs: [words("aaaa bbbb")], maxWidth: 45, maxLines: 2, ellipsisWidth: 10)
        #expect(fits.count == 2 && fits.allSatisfy { !$0.ellipsis })
    }

    @Test func theEllipsisCountsParagraphsThatDoNotShow() {
        let paragraphs = ["one", "two", "three"]
        let lines = CaptionLayout.lines(paragraphs: paragraphs.map { words($0) }, maxWidth: 100, maxLines: 2, ellipsisWidth: 10)
        #expect(texts(lines, paragraphs) == ["one", "two…"])
    }

    @Test func ideographsBreakAnywhereTheyAllow() {
        // Items that may break after each one (as CJK characters do), 30 px wide.
        let items = (0..<7).map { _ in CaptionLayout.Item(width: 30, canBreakAfter: true) }
        let lines = CaptionLayout.lines(paragraphs: [items], maxWidth: 100, maxLines: 5, ellipsisWidth: 30)
        #expect(lines.map(\.items) == [0..<3, 3..<6, 6..<7])
    }
}
