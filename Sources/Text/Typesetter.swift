import Blitter

/// Text set for the screen: each line shaped, and all of them drawn into one coverage mask as wide
/// as the widest line allows, lines `lineHeight` apart. A right-to-left paragraph's lines are
/// aligned right, the others left.
public struct TypesetText: Sendable {
    public var lines: [ShapedLine]
    /// The characters of each line as drawn (the ellipsis included).
    public var lineTexts: [String]
    public var lineHeight: Int
    public var mask: AlphaMask
}

/// Sets paragraphs of text (a caption's title, description and date) with a `FontSet` (and the
/// first paragraphs, a title, with another when given): shapes each paragraph to measure it, breaks
/// it into lines (`CaptionLayout`), shapes each line again in its paragraph's direction (so bidi
/// reordering and joining follow the line), and draws the glyphs from the font set's glyph cache.
/// Belongs to one thread.
public final class Typesetter {
    public let fonts: FontSet
    public let titleFonts: FontSet?
    private let shaper: TextShaper
    private let titleShaper: TextShaper?
    public static let ellipsis: UInt32 = 0x2026

    public init(fonts: FontSet, titleFonts: FontSet? = nil) {
        self.fonts = fonts
        self.titleFonts = titleFonts
        shaper = TextShaper(fonts: fonts)
        titleShaper = titleFonts.map(TextShaper.init)
    }

    /// Characters shaped so far (tests see what was left unshaped).
    var shapedCharacters: Int { shaper.shapedCharacters + (titleShaper?.shapedCharacters ?? 0) }

    /// The shaper of paragraph `index` when the first `titleParagraphs` are a title.
    private func shaper(_ index: Int, titleParagraphs: Int) -> TextShaper {
        index < titleParagraphs ? titleShaper ?? shaper : shaper
    }

    /// The shaper, for callers that want positioned glyphs without a mask.
    public func shape(_ text: String, direction: TextDirection = .auto) throws -> ShapedLine {
        try shaper.shape(text, direction: direction)
    }

    /// `titleParagraphs`: how many of the first paragraphs are the title, set with `titleFonts`.
    public func typeset(_ paragraphs: [String], maxWidth: Int, maxLines: Int, titleParagraphs: Int = 0) throws -> TypesetText {
        let maxWidth64 = max(1, maxWidth) << 6
        var texts: [[UInt32]] = []
        var clusters: [[Range<Int>]] = []
        var items: [[CaptionLayout.Item]] = []
        var directions: [TextDirection] = []
        // What cannot show is not shaped (a 64 KB sidecar would cost frames): paragraphs past
        // `maxLines` + 1, and the characters of a paragraph past twice what `maxLines` lines of
        // the narrowest glyphs (a fifth of the size wide) hold. What is kept still overflows, so
        // the ellipsis stays.
        let lineCount = max(1, maxLines)
        let limit = lineCount * (max(1, maxWidth) / max(1, fonts.pixelSize / 5) + 1) * 2
        for (index, paragraph) in paragraphs.prefix(lineCount + 1).enumerated() {
            let scalars = Array(paragraph.unicodeScalars.prefix(limit).map(\.value))
            let shaped = try shaper(index, titleParagraphs: titleParagraphs).shape(scalars, direction: .auto)
            let ranges = Self.clusters(scalars)
            texts.append(scalars)
            clusters.append(ranges)
            directions.append(shaped.isRightToLeft ? .rightToLeft : .leftToRight)
            items.append(ranges.enumerated().map { i, range in
                let last = scalars[range.upperBound - 1]
                let next = i + 1 < ranges.count ? scalars[ranges[i + 1].lowerBound] : nil
                return CaptionLayout.Item(width: shaped.advances[range].reduce(0, +),
                                          canBreakAfter: Self.canBreak(after: last, before: next),
                                          isSpace: Self.isSpace(last))
            })
        }
        // The wider of the two fonts' ellipses, whichever line ends with it.
        let ellipsisWidth = try [shaper, titleShaper].compactMap { $0 }.map { try $0.shape([Self.ellipsis], direction: .leftToRight).width }.max() ?? 0
        let layout = CaptionLayout.lines(paragraphs: items, maxWidth: maxWidth64, maxLines: maxLines,
                                         ellipsisWidth: ellipsisWidth)
        var lines: [ShapedLine] = []
        var lineTexts: [String] = []
        for line in layout {
            let ranges = clusters[line.paragraph]
            var scalars: [UInt32] = line.items.isEmpty ? []
                : Array(texts[line.paragraph][ranges[line.items.lowerBound].lowerBound..<ranges[line.items.upperBound - 1].upperBound])
            if line.ellipsis { scalars.append(Self.ellipsis) }
            lines.append(try shaper(line.paragraph, titleParagraphs: titleParagraphs).shape(scalars, direction: directions[line.paragraph]))
            lineTexts.append(String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init))))
        }
        // One line height for all (the body's), so that the lines keep an even rhythm.
        let face = try fonts.primaryFace()
        let width = min(maxWidth, lines.map(\.pixelWidth).max() ?? 0)
        var mask = AlphaMask(width: width, height: lines.count * face.lineHeight)
        for (i, line) in lines.enumerated() {
            let baseline = i * face.lineHeight + face.ascender
            let left = line.isRightToLeft ? width - line.pixelWidth : 0
            let lineFonts = layout[i].paragraph < titleParagraphs ? titleFonts ?? fonts : fonts
            for glyph in line.glyphs {
                guard let image = try lineFonts.glyph(glyph.glyph, font: glyph.font), image.width > 0 else { continue }
                let x = left + ((glyph.x + 32) >> 6) + image.left
                let y = baseline - ((glyph.y + 32) >> 6) - image.top
                mask.add(image.coverage, width: image.width, height: image.height, at: x, y)
            }
        }
        return TypesetText(lines: lines, lineTexts: lineTexts, lineHeight: face.lineHeight, mask: mask)
    }

    /// Characters that stay together on a line: a base and the marks, joiners and variation
    /// selectors after it.
    static func clusters(_ scalars: [UInt32]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (i, scalar) in scalars.enumerated() {
            let joinsPrevious = i > 0 && (TextShaper.isMark(scalar) || scalar == 0x200D || (0xFE00...0xFE0F).contains(scalar)
                                          || scalars[i - 1] == 0x200D)
            if joinsPrevious, let last = ranges.last {
                ranges[ranges.count - 1] = last.lowerBound..<(i + 1)
            } else {
                ranges.append(i..<(i + 1))
            }
        }
        return ranges
    }

    static func isSpace(_ scalar: UInt32) -> Bool {
        scalar == 0x20 || scalar == 0x09 || scalar == 0x3000
    }

    /// A simple form of Unicode's line breaking rules: after a space or a hyphen, and before or
    /// after an ideograph or kana, except before the punctuation that must not start a line.
    static func canBreak(after scalar: UInt32, before next: UInt32?) -> Bool {
        if isSpace(scalar) || scalar == 0x2D { return true }
        guard let next else { return false }
        if isSpace(next) { return false }
        if noLineStart.contains(next) { return false }
        return isIdeographic(scalar) || isIdeographic(next)
    }

    /// Punctuation that must not start a line (made once, not for every character).
    private static let noLineStart: Set<UInt32> = [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF01, 0xFF1F, 0x300D, 0x300F, 0xFF09, 0x30FC]

    static func isIdeographic(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x2E80...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }
}
