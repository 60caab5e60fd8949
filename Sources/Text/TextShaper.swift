import CFriBidi
import CHarfBuzz

/// Turns one line of text into positioned glyphs: the bidi levels from FriBidi (Unicode's
/// algorithm, so Arabic and Hebrew run right to left with numbers and Latin inside them the right
/// way round), the text cut into runs of one level, one script and one font (the first font in
/// fontconfig's order that has the character, so a glyph missing in the main font comes from a
/// fallback), each run shaped by HarfBuzz (ligatures, Arabic joining, combining marks placed on
/// their base), and the runs put in visual order (rule L2).
public final class TextShaper {
    public let fonts: FontSet
    private let buffer: OpaquePointer
    private(set) var shapedCharacters = 0

    public init(fonts: FontSet) {
        self.fonts = fonts
        buffer = hb_buffer_create()
    }

    deinit {
        hb_buffer_destroy(buffer)
    }

    private struct Run {
        var start: Int
        var end: Int
        var level: Int8
        var script: hb_script_t
        var font: Int
    }

    public func shape(_ text: String, direction: TextDirection = .auto) throws -> ShapedLine {
        try shape(text.unicodeScalars.map(\.value), direction: direction)
    }

    /// `scalars` in logical order; `direction` the paragraph's.
    public func shape(_ scalars: [UInt32], direction: TextDirection) throws -> ShapedLine {
        shapedCharacters += scalars.count
        let (levels, rightToLeft) = Self.bidiLevels(scalars, direction: direction)
        let runs = try self.runs(scalars, levels: levels)
        var glyphs: [ShapedGlyph] = []
        var advances = [Int](repeating: 0, count: scalars.count)
        var pen = 0
        for run in Self.visualOrder(runs) {
            let hbFont = try fonts.face(run.font).font
            hb_buffer_clear_contents(buffer)
            scalars.withUnsafeBufferPointer { text in
                hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(run.start), Int32(run.end - run.start))
            }
            hb_buffer_set_direction(buffer, run.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, run.script)
            hb_buffer_guess_segment_properties(buffer)  // the language, from the locale
            hb_shape(hbFont, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count) else { continue }
            for i in 0..<Int(count) {
                let cluster = Int(infos[i].cluster)
                glyphs.append(ShapedGlyph(font: run.font, glyph: infos[i].codepoint, x: pen + Int(positions[i].x_offset),
                                          y: Int(positions[i].y_offset), cluster: cluster))
                pen += Int(positions[i].x_advance)
                if advances.indices.contains(cluster) { advances[cluster] += Int(positions[i].x_advance) }
            }
        }
        return ShapedLine(glyphs: glyphs, width: pen, isRightToLeft: rightToLeft, advances: advances)
    }

    /// Each character's embedding level, and whether the paragraph runs right to left.
    static func bidiLevels(_ scalars: [UInt32], direction: TextDirection) -> (levels: [Int8], rightToLeft: Bool) {
        let count = scalars.count
        // FriBidi's paragraph types: LTR = strong | letter, RTL = that | rtl, ON = neutral (find it).
        let maskRTL: UInt32 = 0x1, typeLTR: UInt32 = 0x110, typeRTL: UInt32 = 0x111, typeON: UInt32 = 0x40
        var base: FriBidiParType
        switch direction {
        case .auto: base = FriBidiParType(rawValue: typeON)
        case .leftToRight: base = FriBidiParType(rawValue: typeLTR)
        case .rightToLeft: base = FriBidiParType(rawValue: typeRTL)
        }
        guard count > 0 else { return ([], base.rawValue == typeRTL) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        let result = scalars.withUnsafeBufferPointer { text -> FriBidiLevel in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &base, &levels)
        }
        let rightToLeft = base.rawValue & maskRTL != 0
        if result == 0 {  // FriBidi could not allocate: one run in the paragraph's direction
            return ([Int8](repeating: rightToLeft ? 1 : 0, count: count), rightToLeft)
        }
        return (levels, rightToLeft)
    }

    /// Runs of one level, one script and one font. Characters of no script of their own (spaces,
    /// punctuation, digits, combining marks) join the run before them, and keep its font when it
    /// has them, so a mark stays with its base.
    private func runs(_ scalars: [UInt32], levels: [Int8]) throws -> [Run] {
        let unicode = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(unicode, $0) }
        func isNeutral(_ script: hb_script_t) -> Bool {
            script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
        }
        let firstReal = scripts.first { !isNeutral($0) } ?? HB_SCRIPT_COMMON
        var last = firstReal
        for i in scripts.indices {
            if isNeutral(scripts[i]) { scripts[i] = last } else { last = scripts[i] }
        }
        var runs: [Run] = []
        var previousFont: Int?
        for (i, scalar) in scalars.enumerated() {
            let neutral = isNeutral(hb_unicode_script(unicode, scalar))
            let font: Int
            if let previousFont, neutral, fonts.font(previousFont, has: scalar) {
                font = previousFont
            } else if let previousFont, Self.isMark(scalar) {
                font = previousFont  // a mark no font has is still drawn (as a box) on its base
            } else {
                font = fonts.fontIndex(for: scalar) ?? previousFont ?? 0
            }
            previousFont = font
            if var run = runs.last, run.level == levels[i], run.script == scripts[i], run.font == font {
                run.end = i + 1
                runs[runs.count - 1] = run
            } else {
                runs.append(Run(start: i, end: i + 1, level: levels[i], script: scripts[i], font: font))
            }
        }
        return runs
    }

    static func isMark(_ scalar: UInt32) -> Bool {
        guard let s = Unicode.Scalar(scalar) else { return false }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Unicode's rule L2: from the highest level down to the lowest odd one, every sequence of runs
    /// at that level or above is reversed.
    private static func visualOrder(_ runs: [Run]) -> [Run] {
        guard let highest = runs.map(\.level).max() else { return runs }
        let lowestOdd = runs.map(\.level).filter { $0 & 1 == 1 }.min() ?? (highest + 1)
        var order = runs
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard order[i].level >= level else { i += 1; continue }
                var j = i
                while j < order.count, order[j].level >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}
