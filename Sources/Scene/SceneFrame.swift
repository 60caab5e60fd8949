import Geometry

/// The five modes of SPEC §1, and the kiosk's slideshow: full-screen slides that change by
/// themselves (`kiosk.idle_action = "slideshow"`) until a touch hands the photo to the pager.
public enum SceneMode: String, Equatable, Sendable {
    case grid, opening, pager, dismissing, closing, slideshow
}

/// A grid cell to draw: the photo's thumbnail, aspect-filled into `rect` (screen pixels; may reach
/// past the screen's edges, the renderer clips).
public struct GridCell: Equatable, Sendable {
    public var index: Int
    public var rect: Rect
    /// Which picture of the item the cell shows, for content that changes while the cell stays
    /// put (`Scene.setContentVersion`); 0 for a still photo.
    public var contentVersion: Int

    public init(index: Int, rect: Rect, contentVersion: Int = 0) {
        self.index = index
        self.rect = rect
        self.contentVersion = contentVersion
    }
}

/// A photo to draw whole into `rect`. For pager pages the rect has the photo's own aspect ratio
/// (aspect-fit, times the zoom); for the moving photo of a transition it is the frame that the
/// photo is aspect-filled into and clipped to.
public struct PhotoPlacement: Equatable, Sendable {
    public var index: Int
    public var rect: Rect
    /// The photo's opacity over what lies under it, 0...1 (1: it hides what is under it; less, a
    /// crossfade's two pages).
    public var alpha: Double
    /// Which picture of the item is shown, for content that changes while the photo stays put (a
    /// clip's frame; `Scene.setContentVersion`); 0 for a still photo. Two frames that differ only
    /// here show different pictures.
    public var contentVersion: Int
    /// Whether its caption may show with it: false for the photos of a slideshow's portrait pair
    /// (two captions would cover each other; SPEC §10 gives a caption to a page of its own).
    public var showsCaption: Bool

    public init(index: Int, rect: Rect, alpha: Double = 1, contentVersion: Int = 0, showsCaption: Bool = true) {
        self.index = index
        self.rect = rect
        self.alpha = alpha
        self.contentVersion = contentVersion
        self.showsCaption = showsCaption
    }
}

/// Everything the screen shows at one instant, as plain values: what the renderer draws and what
/// `simulate --trace` writes. Drawing order (SPEC §3): grid, black at `backgroundAlpha`, pages,
/// moving photo.
public struct SceneFrame: Equatable, Sendable {
    public var time: Double
    public var mode: SceneMode
    /// The current photo (pager), the carried photo (transitions), or the last one opened (grid);
    /// nil before any photo was opened.
    public var currentIndex: Int?
    /// The grid's vertical scroll offset in pixels (positive: content moved up).
    public var gridScroll: Double
    /// False when the black background covers the grid completely.
    public var drawsGrid: Bool
    /// The grid cells at least partly on screen.
    public var gridCells: [GridCell]
    /// The cell a transition carries: not drawn in the grid.
    public var hiddenIndex: Int?
    /// Opacity of the pager's black background over the grid, 0...1.
    public var backgroundAlpha: Double
    /// Pager pages on screen (the current one and, while paging, its neighbours), or the slides'
    /// photos. In `slideshow` mode the pages are dissolved, not laid over each other: each pixel is
    /// the sum of alpha x page over black, so a crossfade's two pages (alphas a and 1 - a) give
    /// a x next + (1 - a) x previous where both cover it, and fade from or to black elsewhere. In
    /// the other modes each page is drawn in order over what lies under it, at its alpha.
    public var pages: [PhotoPlacement]
    /// The photo a transition carries (opening, dismissing, closing).
    public var movingPhoto: PhotoPlacement?

    public init(time: Double, mode: SceneMode, currentIndex: Int?, gridScroll: Double, drawsGrid: Bool,
                gridCells: [GridCell], hiddenIndex: Int?, backgroundAlpha: Double,
                pages: [PhotoPlacement], movingPhoto: PhotoPlacement?) {
        self.time = time
        self.mode = mode
        self.currentIndex = currentIndex
        self.gridScroll = gridScroll
        self.drawsGrid = drawsGrid
        self.gridCells = gridCells
        self.hiddenIndex = hiddenIndex
        self.backgroundAlpha = backgroundAlpha
        self.pages = pages
        self.movingPhoto = movingPhoto
    }

    /// Whether the two frames show the same picture: all but their time stamps agree (content
    /// versions and alphas included). A frame that shows the picture on screen is not drawn.
    public func showsSamePicture(as other: SceneFrame?) -> Bool {
        guard var other else { return false }
        other.time = time
        return self == other
    }

    /// The on-screen rect of the moving or current photo, as the trace reports it; nil in grid mode.
    public var photoRect: Rect? {
        if mode == .grid { return nil }
        if let moving = movingPhoto { return moving.rect }
        return pages.first(where: { $0.index == currentIndex })?.rect
    }
}
