import CFreeType
import CHarfBuzz

/// One font file opened at one pixel size: its FreeType face (glyph images) and the HarfBuzz font
/// made from it (shaping). Both hold a reference to the face; each releases its own.
final class FontFace {
    let file: String
    let family: String
    let pixelSize: Int
    let face: FT_Face
    let font: OpaquePointer
    /// Line metrics at this size, in whole pixels.
    let ascender: Int
    let descender: Int
    let lineHeight: Int
    private let library: FreeTypeLibrary

    init(library: FreeTypeLibrary, file: String, index: Int, family: String, pixelSize: Int) throws {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, file, FT_Long(index), &face)
        guard error == 0, let face else { throw TextError("FT_New_Face \(file)", "error \(error)") }
        let sizeError = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        guard sizeError == 0 else {
            FT_Done_Face(face)
            throw TextError("FT_Set_Pixel_Sizes \(file) \(pixelSize)", "error \(sizeError)")
        }
        guard let font = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            throw TextError("hb_ft_font_create_referenced \(file)", "no font")
        }
        self.library = library
        self.file = file
        self.family = family
        self.pixelSize = pixelSize
        self.face = face
        self.font = font
        let metrics = face.pointee.size.pointee.metrics
        ascender = Int((metrics.ascender + 63) >> 6)
        descender = Int((-metrics.descender + 63) >> 6)
        lineHeight = max(pixelSize, Int((metrics.height + 63) >> 6))
    }

    deinit {
        hb_font_destroy(font)
        FT_Done_Face(face)
    }

    /// The glyph's coverage as FreeType renders it (8-bit anti-aliased), or nil when the font
    /// cannot draw it (an empty image for a space is not nil).
    func render(glyph: UInt32) -> GlyphImage? {
        // FT_LOAD_RENDER (1 << 2) with the light hinting target: vertical-only hints, which keep
        // the shapes and HarfBuzz's unhinted advances in step.
        let loadRender: Int32 = 1 << 2, targetLight: Int32 = Int32(FT_RENDER_MODE_LIGHT.rawValue) << 16
        guard FT_Load_Glyph(face, glyph, loadRender | targetLight) == 0, let slot = face.pointee.glyph else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * height)
        // FreeType's grey bitmap: `rows` rows `pitch` bytes apart (negative: stored bottom up),
        // `width` bytes each; read only when a row holds them.
        if width > 0, height > 0, let buffer = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue),
           pitch.magnitude >= width {
            for y in 0..<height {
                let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * -pitch
                for x in 0..<width { coverage[y * width + x] = row[x] }
            }
        }
        return GlyphImage(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                          top: Int(slot.pointee.bitmap_top), coverage: coverage)
    }
}

/// A rasterised glyph: coverage rows, placed `left` px right of the pen and `top` px above the baseline.
struct GlyphImage {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    let coverage: [UInt8]
}
