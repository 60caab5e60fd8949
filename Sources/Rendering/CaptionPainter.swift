import Blitter
import Config
import Geometry
import Photos
import Quoting
import Text

/// Draws captions (SPEC §10): white text on a dark gradient at the bottom of the screen, wrapped to
/// `max_lines` with an ellipsis. A caption is set once (shaped, broken into lines, its glyphs drawn
/// into a coverage mask from the glyph cache) and kept while it is on screen or near it; every
/// frame after that lays the gradient and the mask over the picture, which costs a few rows of
/// blending. Belongs to the frame loop's thread, like the FreeType objects under it.
public final class CaptionPainter {
    public let settings: Settings.Captions
    public let screen: PixelRect
    public let pixelSize: Int
    private let typesetter: Typesetter
    /// Kept by the caption's identity: nothing per frame hashes or compares a caption's text.
    private var layers: [Caption.Identity: CaptionLayer] = [:]
    private var recent: [Caption.Identity] = []
    static let keptLayers = 6
    private var failed: Set<Caption.Identity> = []
    /// How many captions were laid out (shaped, broken into lines, drawn into a mask): tests.
    private(set) var layouts = 0
    /// Told once for each caption that cannot be set (a font file fontconfig lists but FreeType
    /// cannot open); the photo shows without it.
    public var onFailure: ((String) -> Void)?
    /// The bands of the pages the last frame showed. Each holds its photo's pixels, so none is
    /// kept past the frames that show it: the decoded photos stay within `cache.megabytes`.
    private var bands: [BandKey: CaptionBand] = [:]
    private var bandsDrawn: Set<BandKey> = []
    /// The gradient's darkest alpha, behind the text.
    static let darkest = 0.7

    public init(settings: Settings.Captions, screenSize: Size) throws {
        self.settings = settings
        screen = PixelRect(x: 0, y: 0, width: Int(screenSize.width), height: Int(screenSize.height))
        pixelSize = settings.pixelSize(screenHeight: screenSize.height)
        // The title in the font's bold (fontconfig picks the bold face of the family, or makes one).
        typesetter = Typesetter(fonts: try FontSet(pattern: settings.font, pixelSize: pixelSize),
                                titleFonts: try? FontSet(pattern: settings.font + ":bold", pixelSize: pixelSize))
    }

    /// The family fontconfig picked for `font` (to tell an integrator when the font asked for is
    /// not installed).
    public var primaryFamily: String { typesetter.fonts.primaryFamily }
    /// The family `font` names when it is not installed.
    public var missingFamily: String? { typesetter.fonts.missingFamily }

    /// A caption laid out for this screen: the text mask, where it goes with the page at rest, and
    /// the gradient's rows.
    struct CaptionLayer {
        var mask: AlphaMask
        var origin: (x: Int, y: Int)
        /// The gradient's first row, and each row's alpha down to the screen's bottom.
        var gradientTop: Int
        var rowAlphas: [Double]
        var lines: [String]
    }

    /// The caption's layer, set the first time it is drawn.
    func layer(for caption: Caption) -> CaptionLayer? {
        let key = caption.identity
        if let layer = layers[key] {
            if recent.last != key { recent.removeAll { $0 == key }; recent.append(key) }
            return layer
        }
        guard !failed.contains(key) else { return nil }
        let layer: CaptionLayer
        do {
            layer = try makeLayer(caption)
        } catch {
            // Not tried again: a font that fails to open would fail on every frame.
            failed.insert(key)
            onFailure?("cannot draw the caption \"\(Excerpt(caption.title ?? caption.description ?? ""))\": \(error)")
            return nil
        }
        layers[key] = layer
        recent.append(key)
        if recent.count > Self.keptLayers { layers[recent.removeFirst()] = nil }
        return layer
    }

    private func makeLayer(_ caption: Caption) throws -> CaptionLayer {
        layouts += 1
        let margin = max(pixelSize, Int((Double(screen.width) * 0.03).rounded()))
        let text = try typesetter.typeset(caption.paragraphs, maxWidth: max(1, screen.width - 2 * margin),
                                          maxLines: settings.maxLines, titleParagraphs: caption.titleParagraphs)
        let bottom = screen.height - max(pixelSize * 3 / 4, 4)
        let top = bottom - text.mask.height
        let rightToLeft = text.lines.first?.isRightToLeft ?? false
        let x = rightToLeft ? screen.width - margin - text.mask.width : margin
        // The dark gradient starts well above the text, reaches its darkest behind the first line
        // and stays so to the bottom edge.
        let gradientTop = max(0, top - pixelSize * 5 / 2)
        let full = Double(max(1, top + text.lineHeight / 2 - gradientTop))
        let rowAlphas = (gradientTop..<screen.height).map { y -> Double in
            let t = min(1, Double(y - gradientTop) / full)
            return Self.darkest * t * t * (3 - 2 * t)  // smoothstep: no visible edge at the top
        }
        return CaptionLayer(mask: text.mask, origin: (x, top), gradientTop: gradientTop, rowAlphas: rowAlphas,
                            lines: text.lineTexts)
    }

    /// Lays `caption` over `target` with its page `offsetX` px from rest, at `alpha`.
    public func draw(_ caption: Caption, offsetX: Double, alpha: Double, into target: inout Bitmap) {
        guard alpha > 0, let layer = layer(for: caption) else { return }
        Self.lay(layer, over: &target, dx: Int(pixel: offsetX.rounded()), dy: 0, alpha: alpha, width: screen.width)
    }

    /// The pixels `draw` may write for `caption` with its page `offsetX` px from rest: its slot,
    /// from the gradient's top row to the screen's bottom. Nil when it cannot be set.
    public func area(of caption: Caption, offsetX: Double) -> PixelRect? {
        guard let layer = layer(for: caption) else { return nil }
        return PixelRect(x: Int(pixel: offsetX.rounded()), y: layer.gradientTop, width: screen.width,
                         height: screen.height - layer.gradientTop).intersection(screen)
    }

    /// The gradient, then the text, over `target`, the layer's screen rows moved by `dy`.
    private static func lay(_ layer: CaptionLayer, over target: inout Bitmap, dx: Int, dy: Int, alpha: Double, width: Int) {
        let slot = PixelRect(x: dx, y: 0, width: width, height: target.height).intersection(target.bounds)
        guard !slot.isEmpty else { return }
        for (row, rowAlpha) in layer.rowAlphas.enumerated() where rowAlpha > 0 {
            let y = layer.gradientTop + row + dy
            target.blend(PixelRect(x: slot.minX, y: y, width: slot.width, height: 1), color: Pixel.black, alpha: rowAlpha * alpha)
        }
        target.blend(Pixel.white, through: layer.mask, at: (layer.origin.x + dx, layer.origin.y + dy), alpha: alpha, clip: slot)
    }

    // MARK: - A page at rest

    /// The bottom of a page's slot (a screen wide) with the caption laid over its photo: what the
    /// pager shows there while the page is at its own size, at rest or sliding. Drawn once; each
    /// frame copies it in place of those rows of the photo, so a caption costs nothing per frame.
    public struct CaptionBand {
        /// The slot's rows from `top` to the bottom of the screen.
        public var bitmap: Bitmap
        public var top: Int
        /// The photo drawn into it: held so that its storage (the key) stays the same.
        let image: Bitmap
    }

    private struct BandKey: Hashable {
        var caption: Caption.Identity
        var image: UnsafeRawPointer?
        var width: Int
        var height: Int
        var imageX: Int
        var imageY: Int
        var contentVersion: Int
    }

    /// The band for `caption` over `image`, whose top-left corner lies at `imageOrigin` in its
    /// slot (the screen, for the page at rest): black around the photo, as the pager's background.
    /// `contentVersion`: the page's (a clip's frame may change the pixels in the same storage).
    public func band(for caption: Caption, image: Bitmap, imageOrigin: (x: Int, y: Int),
                     contentVersion: Int = 0) -> CaptionBand? {
        let key = BandKey(caption: caption.identity, image: image.pixels.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) },
                          width: image.width, height: image.height, imageX: imageOrigin.x, imageY: imageOrigin.y,
                          contentVersion: contentVersion)
        bandsDrawn.insert(key)
        if let band = bands[key] { return band }
        guard let layer = layer(for: caption) else { return nil }
        let top = layer.gradientTop
        var bitmap = Bitmap(width: screen.width, height: screen.height - top)
        bitmap.copy(from: image, to: (imageOrigin.x, imageOrigin.y - top))
        Self.lay(layer, over: &bitmap, dx: 0, dy: -top, alpha: 1, width: screen.width)
        let band = CaptionBand(bitmap: bitmap, top: top, image: image)
        bands[key] = band
        return band
    }

    /// The frame is drawn: the bands it did not use go (with the photos they hold).
    public func finishFrame() {
        for key in bands.keys where !bandsDrawn.contains(key) { bands[key] = nil }
        bandsDrawn.removeAll(keepingCapacity: true)
    }

    /// How many bands are kept (tests).
    var bandCount: Int { bands.count }

    /// The lines as drawn (with the ellipsis), for tests.
    func lines(for caption: Caption) -> [String] {
        layer(for: caption)?.lines ?? []
    }
}
