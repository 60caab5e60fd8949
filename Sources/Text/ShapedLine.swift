/// A glyph placed on a line: which font and glyph, where its origin lies from the line's left end
/// and the baseline (26.6 fixed point, y up), and the index of the first character of its
/// cluster in the shaped text (HarfBuzz's cluster).
public struct ShapedGlyph: Equatable, Sendable {
    public var font: Int
    public var glyph: UInt32
    public var x: Int
    public var y: Int
    public var cluster: Int
}

/// A line of text shaped by HarfBuzz, its runs in visual order (left to right on screen).
public struct ShapedLine: Equatable, Sendable {
    public var glyphs: [ShapedGlyph]
    /// The pen's advance over the whole line, 26.6.
    public var width: Int
    /// The paragraph direction the line was laid out in.
    public var isRightToLeft: Bool
    /// Each character's share of the advance, in logical order, 26.6: a cluster's advance counts
    /// for its first character (what line breaking measures).
    public var advances: [Int]

    /// The width in whole pixels.
    public var pixelWidth: Int { (width + 63) >> 6 }
}
