import Blitter
import Testing
@testable import Text

/// Shaping and drawing through the real libraries: fontconfig finds the fonts installed by
/// scripts/install-deps (fonts-dejavu-core: Latin, Greek, Cyrillic, Arabic, Hebrew;
/// fonts-wqy-microhei: CJK), HarfBuzz shapes, FriBidi orders, FreeType draws.
@Suite(.serialized) struct TextShapingTests {
    let fonts = try! FontSet(pattern: "DejaVu Sans", pixelSize: 32)

    private func shape(_ text: String) throws -> ShapedLine {
        try TextShaper(fonts: fonts).shape(text)
    }

    @Test func hebrewRunsRightToLeft() throws {
        let line = try shape("שלום")
        #expect(line.isRightToLeft)
        // Visual order, left to right on screen: the last letter first.
        #expect(line.glyphs.map(\.cluster) == [3, 2, 1, 0])
        #expect(line.glyphs.allSatisfy { $0.glyph != 0 })
        #expect(zip(line.glyphs, line.glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    @Test func arabicLettersJoin() throws {
        let word = try shape("سلام")
        let alone = try shape("س")
        #expect(word.isRightToLeft)
        #expect(word.glyphs.last?.cluster == 0)  // the first letter is drawn at the right end
        // The seen at the start of a word takes its initial form, not the isolated one.
        let initial = try #require(word.glyphs.first { $0.cluster == 0 })
        #expect(initial.glyph != alone.glyphs[0].glyph)
        #expect(initial.glyph != 0)
    }

    @Test func rightToLeftInsideLeftToRightKeepsItsOrder() throws {
        let line = try shape("abc שלום def")
        #expect(!line.isRightToLeft)
        // Latin first, then the Hebrew word right to left, then the space and Latin again.
        #expect(line.glyphs.map(\.cluster) == [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11])
        // A number after the Hebrew word belongs to it (rules W and N1): "12" goes left of the
        // word, its digits still left to right.
        #expect(try shape("abc שלום 12").glyphs.map(\.cluster) == [0, 1, 2, 3, 9, 10, 8, 7, 6, 5, 4])
        // A paragraph that starts with Hebrew is right to left, with the number left to right in it.
        let hebrew = try shape("שנת 2024")
        #expect(hebrew.isRightToLeft)
        let digits = hebrew.glyphs.filter { (4...7).contains($0.cluster) }.map(\.cluster)
        #expect(digits == [4, 5, 6, 7])
        #expect(hebrew.glyphs.first?.cluster == 4)  // the number sits at the left end
    }

    @Test func combiningMarksStayOnTheirBase() throws {
        // q has no precomposed form with an acute: HarfBuzz places the mark on it with no advance.
        let marked = try shape("q\u{0301}")
        let plain = try shape("q")
        #expect(marked.glyphs.count == 2)
        #expect(marked.glyphs.allSatisfy { $0.cluster == 0 })
        #expect(marked.width == plain.width)
        #expect(marked.advances == [plain.width, 0])
        let mark = marked.glyphs[1]
        #expect(mark.x >= 0 && mark.x < plain.width)
        // e + acute composes to é (one glyph), the same as the precomposed character.
        #expect(try shape("e\u{0301}").glyphs.map(\.glyph) == (try shape("é")).glyphs.map(\.glyph))
    }

    @Test func aGlyphMissingInTheMainFontComesFromAFallback() throws {
        let line = try shape("Tokyo 東京")
        let latin = line.glyphs.filter { $0.cluster < 5 }
        let kanji = line.glyphs.filter { $0.cluster >= 6 }
        #expect(latin.allSatisfy { $0.font == 0 })
        #expect(kanji.count == 2 && kanji.allSatisfy { $0.font != 0 && $0.glyph != 0 })
        let family = try fonts.face(kanji[0].font).family
        #expect(family != fonts.primaryFamily)
        #expect(fonts.primaryFamily == "DejaVu Sans")
    }

    @Test func aMissingFontFallsBackThroughFontconfig() throws {
        let missing = try FontSet(pattern: "NoSuchFont", pixelSize: 24)
        #expect(missing.primaryFamily != "NoSuchFont" && !missing.primaryFamily.isEmpty)
        #expect(missing.missingFamily == "NoSuchFont")
        #expect(fonts.missingFamily == nil)
        #expect(try FontSet(pattern: "sans-serif:bold", pixelSize: 24).missingFamily == nil)
        #expect(try FontSet(pattern: "dejavu sans", pixelSize: 24).missingFamily == nil)
        let text = try Typesetter(fonts: missing).typeset(["Hello, world"], maxWidth: 400, maxLines: 1)
        #expect(text.lines[0].glyphs.allSatisfy { $0.glyph != 0 })
        #expect(text.mask.coverage.contains { $0 > 200 })
    }

    @Test func cjkIsShapedAndBreaksBetweenCharacters() throws {
        let typesetter = Typesetter(fonts: fonts)
        let text = try typesetter.typeset(["池塘边的蜻蜓在夏天的早晨飞来飞去"], maxWidth: 32 * 6, maxLines: 5)
        #expect(text.lines.count == 3)
        #expect(text.lineTexts.joined() == "池塘边的蜻蜓在夏天的早晨飞来飞去")
        for line in text.lines {
            #expect(line.pixelWidth <= 32 * 6)
            #expect(line.glyphs.allSatisfy { $0.glyph != 0 && $0.font != 0 })
            // Full-width characters: equal advances, left to right.
            let xs = line.glyphs.map(\.x)
            #expect(xs == xs.sorted())
        }
    }

    @Test func longTextWrapsToMaxLinesWithAnEllipsis() throws {
        let typesetter = Typesetter(fonts: fonts)
        let long = "Μια πολύ μεγάλη λεζάντα που δεν χωράει σε δύο γραμμές και πρέπει να κοπεί με αποσιωπητικά"
        let text = try typesetter.typeset(["Заголовок", long], maxWidth: 400, maxLines: 2)
        #expect(text.lineTexts.count == 2)
        #expect(text.lineTexts[0] == "Заголовок")
        #expect(text.lineTexts[1].hasSuffix("…"))
        #expect(text.lineTexts[1].hasPrefix("Μια πολύ"))
        #expect(text.lines.allSatisfy { $0.pixelWidth <= 400 })
        #expect(text.mask.height == 2 * text.lineHeight)
    }

    @Test func aHugeTextIsCutBeforeShapingAndStillEndsWithAnEllipsis() throws {
        let typesetter = Typesetter(fonts: fonts)
        let huge = String(repeating: "lorem ipsum dolor sit amet ", count: 2400)  // 64 KB
        let paragraphs = ["Title"] + Array(repeating: huge, count: 50)
        let text = try typesetter.typeset(paragraphs, maxWidth: 600, maxLines: 3)
        #expect(text.lineTexts.count == 3)
        #expect(text.lineTexts[0] == "Title")
        #expect(text.lineTexts[2].hasSuffix("…"))
        // Shaped: the start of three long paragraphs (measured, then the lines), not 50 x 64 KB.
        #expect(typesetter.shapedCharacters < 3 * 3 * (600 / (32 / 5) + 1) * 2 + 100)
    }

    @Test func theTitleIsSetInTheBoldOfTheFont() throws {
        let bold = try FontSet(pattern: "DejaVu Sans:bold", pixelSize: 32)
        let typesetter = Typesetter(fonts: fonts, titleFonts: bold)
        let text = try typesetter.typeset(["Harbour", "Harbour"], maxWidth: 900, maxLines: 3, titleParagraphs: 1)
        // The same word, wider and with more ink in bold.
        #expect(text.lines[0].width > text.lines[1].width)
        func ink(_ line: Int) -> Int {
            (line * text.lineHeight..<(line + 1) * text.lineHeight).reduce(0) { sum, y in
                sum + (0..<text.mask.width).reduce(0) { $0 + Int(text.mask[$1, y]) }
            }
        }
        #expect(ink(0) > ink(1) * 5 / 4)
        #expect(try bold.face(0).family == "DejaVu Sans")
    }

    @Test func rightToLeftLinesAlignRight() throws {
        let typesetter = Typesetter(fonts: fonts)
        let text = try typesetter.typeset(["Long left-to-right title", "שלום"], maxWidth: 800, maxLines: 3)
        let mask = text.mask
        func inkColumns(line: Int) -> [Int] {
            (0..<mask.width).filter { x in
                (line * text.lineHeight..<(line + 1) * text.lineHeight).contains { y in mask[x, y] > 0 }
            }
        }
        let ltr = inkColumns(line: 0), rtl = inkColumns(line: 1)
        #expect(ltr.first! < 4)
        #expect(rtl.last! > mask.width - 4)
        #expect(rtl.first! > mask.width / 2)
    }

    @Test func glyphsAreRasterisedOnce() throws {
        let typesetter = Typesetter(fonts: fonts)
        let first = try typesetter.typeset(["Lakeside at dawn", "Mist over the water"], maxWidth: 900, maxLines: 3)
        let rasterised = fonts.glyphs.rasterised
        #expect(rasterised > 0)
        let second = try typesetter.typeset(["Lakeside at dawn", "Mist over the water"], maxWidth: 900, maxLines: 3)
        #expect(fonts.glyphs.rasterised == rasterised)
        #expect(first.mask == second.mask)
        // New letters cost only their own glyphs.
        _ = try typesetter.typeset(["Lakeside at dawn!"], maxWidth: 900, maxLines: 3)
        #expect(fonts.glyphs.rasterised == rasterised + 1)
    }
}
