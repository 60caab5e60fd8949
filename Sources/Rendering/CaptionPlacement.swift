import Blitter
import Geometry
import Scene

/// Where captions go in a frame (SPEC §10), as plain values: the caption belongs to its page. In
/// the pager each page not zoomed in carries its photo's caption, moved sideways with the page
/// while it slides; a transition (opening, dismissing, closing) carries the caption of the photo
/// it moves, in place, faded with the black background. A page zoomed in fades its caption out
/// by `fadeZoom` (10% larger): the visitor is looking at the picture. A translucent photo's caption
/// fades with it.
public struct CaptionPlacement: Equatable, Sendable {
    public var index: Int
    /// Horizontal offset of the page from its resting place, px.
    public var offsetX: Double
    /// The caption's opacity, 0...1: the background's, times its photo's.
    public var alpha: Double

    public init(index: Int, offsetX: Double, alpha: Double) {
        self.index = index
        self.offsetX = offsetX
        self.alpha = alpha
    }

    public static func placements(in frame: SceneFrame, screen: Size) -> [CaptionPlacement] {
        let alpha = min(1, max(0, frame.backgroundAlpha))
        guard frame.mode != .grid, alpha > 0 else { return [] }
        if let moving = frame.movingPhoto {
            return [CaptionPlacement(index: moving.index, offsetX: 0, alpha: alpha * min(1, max(0, moving.alpha)))]
        }
        return frame.pages.compactMap { page in
            let rect = page.rect
            guard page.showsCaption else { return nil }
            // A page at rest fits the screen: one side is the screen's. Past that, it is zoomed (a
            // slideshow's Ken Burns zoom is not the visitor's: its caption stays).
            let zoom = frame.mode == .slideshow ? 1 : max(rect.width / screen.width, rect.height / screen.height)
            let shown = min(1, max(0, (1 + fadeZoom - zoom) / fadeZoom)) * min(1, max(0, page.alpha))
            guard rect.minX.isFinite, zoom.isFinite, PixelMath.alphaWeight(alpha * shown) > 0 else { return nil }
            // The page's left edge from where it rests (centred, on whole pixels as the renderer
            // places it), so that the caption moves in whole pixels with a page drawn in them.
            return CaptionPlacement(index: page.index, offsetX: rect.minX - ((screen.width - rect.width) / 2).rounded(.down),
                                    alpha: alpha * shown)
        }
    }

    /// How much larger than at rest a page is when its caption has faded out.
    public static let fadeZoom = 0.1

    /// The caption of the current photo, if the frame shows it.
    public static func current(in frame: SceneFrame, screen: Size) -> CaptionPlacement? {
        guard let current = frame.currentIndex else { return nil }
        return placements(in: frame, screen: screen).first { $0.index == current }
    }
}
