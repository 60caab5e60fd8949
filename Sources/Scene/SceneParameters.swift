import Animation
import Gestures

/// Every number of the interaction (SPEC §1), grouped by the part of the scene that uses it. The
/// defaults are the iOS reference values and the config's only defaults: `Config.Settings.scene`
/// is this struct, and the config file's keys write into it (`animation.open_duration` into
/// `open.duration`), so the scene knows nothing of config files. Springs are given at rest: the
/// dismissal's start at the finger's speed.
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
    /// How the kiosk's slideshow goes from one slide to the next (`[kiosk]` in the config).
    public var slideshow = Slideshow()
    /// A finger resting this long on the pager's page at 1x, within the tap slop, is a hold
    /// (`Scene.pageHold`: a Live Photo's motion plays). SPEC §12 fixes it, as UIKit's long press
    /// does, so it is no setting; it is longer than any tap (`gestures.tapTimeout`'s default 0.3 s).
    public static let holdDuration = 0.5

    public init() {}

    public struct Grid: Equatable, Sendable {
        /// Square cells per row.
        public var columns = 4
        /// px between the cells and at the screen's edges.
        public var spacing = 4.0
        /// A released scroll coasts, its velocity multiplied by this every millisecond.
        public var decelerationRate = 0.998
        /// A scroll past either end springs back on this.
        public var bounce = Spring(duration: 0.5, dampingRatio: 1)
        public init() {}
    }

    public struct Pager: Equatable, Sendable {
        /// px of black from one page to the next.
        public var pageSpacing = 20.0
        /// px/s: a release this fast goes to the neighbour even before half the width.
        public var flickVelocity = 500.0
        /// The pinch's upper limit (and 1x its lower); beyond them the zoom resists and springs back.
        public var maxZoom = 4.0
        /// A double tap at 1x zooms to this about the tap.
        public var doubleTapZoom = 2.5
        /// Seconds of the critically damped spring that settles the pages after a drag.
        public var settleDuration = 0.35
        /// Double-tap zoom and the spring back into 1x...maxZoom.
        public var zoom = Spring(duration: 0.3, dampingRatio: 1)
        public init() {}
    }

    public struct Dismiss: Equatable, Sendable {
        /// Progress p = clamp(dy / maxDrag, 0, 1), dy the finger's downward travel (px).
        public var maxDrag = 200.0
        /// The photo's scale is 1 - (1 - minScale) p.
        public var minScale = 0.68
        /// A release finishes into the cell only past this p ...
        public var progressThreshold = 0.1
        /// ... and when the finger is not moving up faster than this (px/s); else it cancels.
        public var upwardVelocity = 50.0
        /// Travel (px) before a drag in the pager is a dismissal (downward) or a page (sideways).
        public var startDistance = 10.0
        /// Into the grid cell, starting at the finger's speed.
        public var finish = Spring(duration: 0.37, dampingRatio: 0.9)
        /// Back to the pager, starting at the finger's speed.
        public var cancel = Spring(duration: 0.45, dampingRatio: 0.75)
        public init() {}
    }

    public struct Slideshow: Equatable, Sendable {
        /// From one slide to the next (the config's `kiosk.slideshow_transition`, by these names).
        public enum Transition: String, Equatable, Sendable, CaseIterable {
            /// The next slide slides in from the right, as a swipe in the pager.
            case slide
            /// The next slide fades in as the one before fades out.
            case crossfade
            /// A crossfade, and every slide zooms slowly from 1.0 to 1.1 and pans over its interval.
            case kenBurns = "ken_burns"
        }

        public var transition = Transition.slide
        /// Seconds the change from one slide to the next takes.
        public var transitionDuration = 1.0
        /// On a landscape screen, two portrait photos side by side on one slide.
        public var portraitPairs = false
        public init() {}
    }
}
