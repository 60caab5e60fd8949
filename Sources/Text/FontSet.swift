import CFontconfig
import Foundation

/// The fonts a fontconfig pattern ("sans-serif", "DejaVu Sans:bold", "Noto Sans CJK JP") stands
/// for, best first, as fontconfig sorts them: the first is the font asked for (or fontconfig's
/// substitute when it is not installed), the others are the fallbacks for characters it lacks.
/// Faces are opened at `pixelSize` the first time a character needs them, and their glyph images
/// are kept (`GlyphCache`). Belongs to one thread, like the FreeType objects it holds.
public final class FontSet {
    public let pattern: String
    public let pixelSize: Int
    private let library: FreeTypeLibrary
    private let candidates: [Candidate]
    private var faces: [Int: FontFace] = [:]
    private var fontForScalar: [UInt32: Int] = [:]
    let glyphs = GlyphCache()

    private struct Candidate {
        let file: String
        let index: Int
        let family: String
        let charset: OpaquePointer
    }

    /// fontconfig's configuration, loaded once for the process (it scans the font folders).
    nonisolated(unsafe) private static let config: OpaquePointer? = FcInitLoadConfigAndFonts()

    public init(pattern: String, pixelSize: Int) throws {
        guard let config = Self.config else { throw TextError("FcInitLoadConfigAndFonts", "no fontconfig configuration") }
        guard let parsed = FcNameParse(pattern) else { throw TextError("FcNameParse", "cannot read the font pattern \"\(pattern)\"") }
        defer { FcPatternDestroy(parsed) }
        let requested = Self.strings(parsed, "family").first
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let sorted = FcFontSort(config, parsed, 1, nil, &result) else {
            throw TextError("FcFontSort", "no font matches \"\(pattern)\"")
        }
        defer { FcFontSetDestroy(sorted) }
        var candidates: [Candidate] = []
        for i in 0..<Int(sorted.pointee.nfont) {
            guard let font = sorted.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var family: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            var charset: OpaquePointer?
            guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file,
                  FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset,
                  let copy = FcCharSetCopy(charset) else { continue }
            _ = FcPatternGetInteger(font, "index", 0, &index)
            _ = FcPatternGetString(font, "family", 0, &family)
            candidates.append(Candidate(file: String(cString: file), index: Int(index),
                                        family: family.map { String(cString: $0) } ?? "", charset: copy))
        }
        guard !candidates.isEmpty else { throw TextError("FcFontSort", "no font file for \"\(pattern)\"") }
        // A family asked for by name that the best match does not have is not installed (generic
        // names such as "sans-serif" are aliases fontconfig resolves, not families).
        if let requested, !Self.genericFamilies.contains(requested.lowercased()), let best = sorted.pointee.fonts[0],
           !Self.strings(best, "family").contains(where: { $0.caseInsensitiveCompare(requested) == .orderedSame }) {
            missingFamily = requested
        } else {
            missingFamily = nil
        }
        library = try FreeTypeLibrary()
        self.pattern = pattern
        self.pixelSize = max(1, pixelSize)
        self.candidates = candidates
    }

    deinit {
        for candidate in candidates { FcCharSetDestroy(candidate.charset) }
    }

    /// The family fontconfig chose first for the pattern (DejaVu Sans for "sans-serif" on Debian).
    public var primaryFamily: String { candidates[0].family }
    /// The family the pattern names when no installed font has it (fontconfig chose another).
    public let missingFamily: String?

    static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui",
                                              "cursive", "fantasy", "emoji", "math"]

    /// Every value of a string property of a pattern.
    private static func strings(_ pattern: OpaquePointer, _ property: String) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while values.count < 16, FcPatternGetString(pattern, property, Int32(values.count), &value) == FcResultMatch, let value {
            values.append(String(cString: value))
        }
        return values
    }

    /// The families of the fonts a text drawn so far used, best first.
    public var openedFamilies: [String] { faces.keys.sorted().compactMap { faces[$0]?.family } }

    /// The first font (by fontconfig's order) that has `scalar`; nil when no installed font does.
    func fontIndex(for scalar: UInt32) -> Int? {
        if let known = fontForScalar[scalar] { return known >= 0 ? known : nil }
        let found = candidates.firstIndex { FcCharSetHasChar($0.charset, scalar) != 0 }
        fontForScalar[scalar] = found ?? -1
        return found
    }

    /// True when the font at `index` has `scalar`.
    func font(_ index: Int, has scalar: UInt32) -> Bool {
        FcCharSetHasChar(candidates[index].charset, scalar) != 0
    }

    /// The face of the font at `index`, opened the first time.
    func face(_ index: Int) throws -> FontFace {
        if let face = faces[index] { return face }
        let candidate = candidates[index]
        let face = try FontFace(library: library, file: candidate.file, index: candidate.index,
                                family: candidate.family, pixelSize: pixelSize)
        faces[index] = face
        return face
    }

    /// The main font's face: line metrics come from it.
    func primaryFace() throws -> FontFace { try face(0) }

    /// A glyph's image, rasterised once and then kept.
    func glyph(_ id: UInt32, font index: Int) throws -> GlyphImage? {
        let key = GlyphCache.Key(font: index, glyph: id, pixelSize: pixelSize)
        if let image = glyphs.image(for: key) { return image }
        let image = try face(index).render(glyph: id)
        glyphs.store(image, for: key)
        return image
    }
}
