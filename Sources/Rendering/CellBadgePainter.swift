import Blitter
import Geometry
import Text

/// Draws a grid cell's badge, a clip's duration (`0:12`, SPEC §12), as iOS Photos does: small
/// white text in the cell's bottom-right corner over a soft dark shadow that keeps it legible on
/// a white sky, over the thumbnail or the placeholder. Each distinct text at each size is set and
/// rasterised once (shaped, drawn into a coverage mask, its shadow blurred from it) and kept; every
/// frame after that blends two small masks. Belongs to the frame loop's thread, like the FreeType
/// objects under it. The fonts are opened the first time a badge is drawn, so a renderer that
/// never shows a clip never asks fontconfig.
public final class CellBadgePainter {
    /// A fontconfig pattern (the captions' family: the kiosk's one choice of typeface); set in its
    /// semibold weight, or the nearest one fontconfig has.
    public let font: String
    /// Told once when no font can be opened; the cells show without badges.
    public var onFailure: ((String) -> Void)?
    private var typesetters: [Int: Typesetter] = [:]
    private var failed = false
    private var badges: [Key: Badge] = [:]
    private var used: Set<Key> = []
    /// Kept beyond the ones the last frame drew (a few hundred bytes each).
    static let keptBadges = 256
    /// How many badges were set and rasterised (tests: never once per frame).
    private(set) var rasterised = 0

    /// How dark the shadow is at its darkest, and its blur radius and drop in text sizes.
    static let shadowAlpha = 0.5

    public init(font: String = "sans-serif", onFailure: ((String) -> Void)? = nil) {
        self.font = font
        self.onFailure = onFailure
    }

    private struct Key: Hashable {
        var text: String
        var pixelSize: Int
    }

    /// A badge set for one size: the text's coverage and its shadow's, the same size, the ink
    /// `pad` px in from the edges.
    struct Badge {
        var text: AlphaMask
        var shadow: AlphaMask
        var pad: Int
    }

    /// The text's size in a cell `side` px wide: 12% of the side (iOS Photos' 12 pt in a 98 pt
    /// cell), at least 9 px.
    static func pixelSize(cellSide side: Double) -> Int {
        max(9, Int(saturating: (side * 0.12).rounded()))
    }

    /// The ink's distance from the cell's right and bottom edges: 6% of the side, at least 2 px.
    static func margin(cellSide side: Double) -> Int {
        max(2, Int(saturating: (side * 0.06).rounded()))
    }

    /// Draws `text` in the bottom-right corner of the cell at `cell` (on whole pixels), clipped to
    /// `clip` (the cell's pixels on screen).
    func draw(_ text: String, cell: Rect, clip: PixelRect, into target: inout Bitmap) {
        guard !clip.isEmpty, cell.maxX.isFinite, cell.maxY.isFinite, let badge = badge(text, cellSide: cell.width) else { return }
        let margin = Self.margin(cellSide: cell.width)
        let inkWidth = badge.text.width - 2 * badge.pad, inkHeight = badge.text.height - 2 * badge.pad
        let x = Int(pixel: cell.maxX.rounded(.down)) - margin - inkWidth - badge.pad
        let y = Int(pixel: cell.maxY.rounded(.down)) - margin - inkHeight - badge.pad
        let drop = max(1, badge.pad / 2)
        target.blend(Pixel.black, through: badge.shadow, at: (x, y + drop), alpha: Self.shadowAlpha, clip: clip)
        target.blend(Pixel.white, through: badge.text, at: (x, y), alpha: 1, clip: clip)
    }

    /// The badge for `text` in a cell `side` px wide, set the first time it is asked for.
    func badge(_ text: String, cellSide side: Double) -> Badge? {
        let key = Key(text: text, pixelSize: Self.pixelSize(cellSide: side))
        used.insert(key)
        if let badge = badges[key] { return badge }
        guard let typesetter = typesetter(pixelSize: key.pixelSize),
              let set = try? typesetter.typeset([text], maxWidth: key.pixelSize * max(1, text.count) * 2, maxLines: 1),
              let badge = Self.makeBadge(set.mask, pad: max(1, key.pixelSize / 6)) else { return nil }
        rasterised += 1
        badges[key] = badge
        return badge
    }

    /// The frame is drawn: past `keptBadges`, the badges it did not use go.
    func finishFrame() {
        if badges.count > Self.keptBadges {
            for key in badges.keys where !used.contains(key) { badges[key] = nil }
        }
        used.removeAll(keepingCapacity: true)
    }

    private func typesetter(pixelSize: Int) -> Typesetter? {
        if let typesetter = typesetters[pixelSize] { return typesetter }
        guard !failed else { return nil }
        do {
            let typesetter = Typesetter(fonts: try FontSet(pattern: font + ":semibold", pixelSize: pixelSize))
            typesetters[pixelSize] = typesetter
            return typesetter
        } catch {
            // Not tried again: a font that fails to open would fail on every frame.
            failed = true
            onFailure?("clips show no duration in the grid: no font for \"\(font)\": \(error)")
            return nil
        }
    }

    /// The text's ink, `pad` px in from every edge, and its shadow: the ink spread by a box blur
    /// of radius `pad` (horizontal, then vertical) and doubled, so thin strokes keep a dark edge.
    static func makeBadge(_ mask: AlphaMask, pad: Int) -> Badge? {
        var minX = mask.width, minY = mask.height, maxX = -1, maxY = -1
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask[x, y] > 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= minX, maxY >= minY else { return nil }
        var text = AlphaMask(width: maxX - minX + 1 + 2 * pad, height: maxY - minY + 1 + 2 * pad)
        for y in minY...maxY {
            for x in minX...maxX { text[x - minX + pad, y - minY + pad] = mask[x, y] }
        }
        let horizontal = boxBlur(text.coverage, width: text.width, height: text.height, radius: pad, stepX: 1, stepY: text.width)
        let both = boxBlur(horizontal, width: text.height, height: text.width, radius: pad, stepX: text.width, stepY: 1)
        var shadow = AlphaMask(width: text.width, height: text.height)
        shadow.coverage = both.map { UInt8(min(255, Int($0) * 2)) }
        return Badge(text: text, shadow: shadow, pad: pad)
    }

    /// A box blur along one axis of `values`: `width` samples per line `stepX` apart, `height`
    /// lines `stepY` apart; beyond the edges is 0.
    private static func boxBlur(_ values: [UInt8], width: Int, height: Int, radius: Int, stepX: Int, stepY: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: values.count)
        let span = 2 * radius + 1
        for line in 0..<height {
            let base = line * stepY
            var sum = 0
            for x in 0..<min(radius, width) { sum += Int(values[base + x * stepX]) }
            for x in 0..<width {
                if x + radius < width { sum += Int(values[base + (x + radius) * stepX]) }
                if x - radius - 1 >= 0 { sum -= Int(values[base + (x - radius - 1) * stepX]) }
                out[base + x * stepX] = UInt8((sum + span / 2) / span)
            }
        }
        return out
    }
}
