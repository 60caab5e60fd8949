/// Glyph images by font, glyph id and size: each glyph is rasterised once (SPEC §10). Bounded by a
/// count: captions use a few hundred glyphs; a CJK library may use thousands, and past the bound the
/// cache starts again rather than grow without end.
final class GlyphCache {
    struct Key: Hashable {
        let font: Int
        let glyph: UInt32
        let pixelSize: Int
    }

    static let capacity = 8192
    private var images: [Key: GlyphImage?] = [:]
    /// Glyphs rasterised so far (the benchmark and tests read it to see that the cache works).
    private(set) var rasterised = 0

    func image(for key: Key) -> GlyphImage?? {
        images[key]
    }

    func store(_ image: GlyphImage?, for key: Key) {
        if images.count >= Self.capacity { images.removeAll(keepingCapacity: true) }
        images[key] = .some(image)
        rasterised += 1
    }

    var count: Int { images.count }
}
