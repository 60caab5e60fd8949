import Animation
import Gestures

/// Every number of the interaction (SPEC §1), grouped by the part of the scene that uses it. The
/// defaults are the iOS reference values, which are also the config's defaults; the app maps its
/// settings onto these in one place, so the scene knows nothing of config files.
public struct SceneParameters: Equatable, Sendable {
    public var grid = Grid()
    public var pager = Pager()
    public var dismiss = Dismiss()
    /// Tap slop and timeout (and the double tap's interval and distance).
    public var gestures = GestureRecognizer.Configuration()
    /// The zoom from the cell to full screen; the background fades in on the same curve.
    public var open = Spring(duration: 0.5, dampingRatio: 0.8)
    /// The zoom back into the cell without a drag, on the ease-out bezier (0, 0, 0.58, 1).
    public var closeDuration = 0.25

    public init() {}

    public struct Grid: Equatable, Sendable {
        public var columns = 4
        /// px between cells and at the edges.
        public var spacing = 4.0
        /// UIScrollView's normal rate: a coasting scroll's velocity is multiplied by this every millisecond.
        public var decelerationRate = 0.998
        /// Springing back after a rubber band.
        public var bounce = Spring(duration: 0.5, dampingRatio: 1)
        public init() {}
    }

    public struct Pager: Equatable, Sendable {
        /// px of black between pages.
        public var pageSpacing = 20.0
        /// px/s; a faster release pages even before half the width.
        public var flickVelocity = 500.0
        public var maxZoom = 4.0
        public var doubleTapZoom = 2.5
        /// The critically damped settle after a swipe.
        public var settleDuration = 0.35
        /// Double-tap zoom and the zoom's spring back into range.
        public var zoom = Spring(duration: 0.3, dampingRatio: 1)
        public init() {}
    }

    public struct Dismiss: Equatable, Sendable {
        /// Finger travel (px) at which progress reaches 1.
        public var maxDrag = 200.0
        /// The photo's scale at `maxDrag`.
        public var minScale = 0.68
        /// Below this progress a release cancels.
        public var progressThreshold = 0.1
        /// px/s of upward finger speed at release above which the dismissal cancels.
        public var upwardVelocity = 50.0
        /// Distance (px) a drag in the pager must move before it is a dismissal or a page.
        public var startDistance = 10.0
        /// Into the grid cell, starting at the finger's speed.
        public var finish = Spring(duration: 0.37, dampingRatio: 0.9)
        /// Back to the pager, starting at the finger's speed.
        public var cancel = Spring(duration: 0.45, dampingRatio: 0.75)
        public init() {}
    }
}
