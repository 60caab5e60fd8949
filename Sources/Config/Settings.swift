import RunLoopRules

/// Every setting of SPEC §5, with its default: plain values, with no file format attached.
/// `ConfigLoader` (module ConfigFile) fills them from TOML; the rest of the program reads only these.
public struct Settings: Equatable, Sendable {
    public var display = Display()
    public var input = Input()
    public var photos = Photos()
    public var grid = Grid()
    public var pager = Pager()
    public var captions = Captions()
    public var dismiss = Dismiss()
    public var animation = Animation()
    public var kiosk = Kiosk()
    public var schedule = Schedule()
    public var cache = Cache()
    public var log = Log()
    public var remote = Remote()

    public init() {}

    /// Screen rotation in degrees clockwise.
    public enum Rotation: Int, Equatable, Sendable, CaseIterable {
        case none = 0, quarter = 90, half = 180, threeQuarters = 270
    }

    public struct Display: Equatable, Sendable {
        /// DRM device path such as "/dev/dri/card0"; nil: the first card with a connected connector.
        public var card: String? = nil
        /// Connector name such as "HDMI-A-1"; nil: the first connected one.
        public var connector: String? = nil
        /// nil ("auto"): the connector's preferred mode.
        public var mode: ModeRequest? = nil
        /// nil ("auto"): the connector's panel orientation property, else none.
        public var rotation: Rotation? = nil
        public init() {}
    }

    public struct Input: Equatable, Sendable {
        /// An evdev path such as "/dev/input/event3"; nil ("auto"): every touch device found.
        public var device: String? = nil
        /// nil ("auto"): the display's rotation.
        public var rotation: Rotation? = nil
        public var swapXY = false
        public var invertX = false
        public var invertY = false
        /// libinput's calibration matrix (a b c d e f), in normalised coordinates; nil: identity.
        public var calibration: [Double]? = nil
        /// EVIOCGRAB the touch devices so nothing else (a console) sees the touches.
        public var grab = true
        /// Finger travel (px) and duration (s) within which a touch is a tap.
        public var tapSlop = 10.0
        public var tapTimeout = 0.3
        public init() {}
    }

    public enum Sort: String, Equatable, Sendable, CaseIterable {
        case name, modified
    }

    public struct Photos: Equatable, Sendable {
        public var directory = "/srv/vitrine/photos"
        public var sort = Sort.name
        public var maxMegapixels = 100.0
        /// Photo files larger than this are skipped, read or not (SPEC §4).
        public var maxFileMegabytes = 200
        public var watch = true
        public init() {}
    }

    public struct Grid: Equatable, Sendable {
        public var columns = 4
        public var spacing = 4.0
        /// Drawn for photos not yet decoded.
        public var placeholderColor: UInt32 = 0x20_20_20
        public var backgroundColor: UInt32 = 0x00_00_00
        /// UIScrollView's normal rate: velocity multiplied by this every millisecond.
        public var decelerationRate = 0.998
        public init() {}
    }

    public struct Pager: Equatable, Sendable {
        public var pageSpacing = 20.0
        /// px/s; a faster release pages even before half the width.
        public var flickVelocity = 500.0
        public var maxZoom = 4.0
        public var doubleTapZoom = 2.5
        public init() {}
    }

    /// SPEC §10: the text of the photo under it in the pager.
    public struct Captions: Equatable, Sendable {
        public var show = true
        /// Add the date taken (EXIF DateTimeOriginal), formatted with `dateFormat` (strftime).
        public var date = false
        public var dateFormat = "%e %B %Y"
        /// A fontconfig pattern; fallbacks for missing glyphs come from fontconfig.
        public var font = "sans-serif"
        /// Pixels; 0: 3% of the screen height.
        public var size = 0
        public var maxLines = 3
        public init() {}

        /// The text size on a screen `screenHeight` pixels high.
        public func pixelSize(screenHeight: Double) -> Int {
            size > 0 ? size : max(8, Int((screenHeight * 0.03).rounded()))
        }
    }

    public struct Dismiss: Equatable, Sendable {
        /// Finger travel (px) at which progress reaches 1.
        public var maxDrag = 200.0
        public var minScale = 0.68
        public var progressThreshold = 0.1
        /// px/s of upward finger speed at release above which the dismissal cancels.
        public var upwardVelocity = 50.0
        /// Distance (px) a drag must move before it is a dismissal or a page.
        public var startDistance = 10.0
        public init() {}
    }

    public struct Animation: Equatable, Sendable {
        public var openDuration = 0.5
        public var openDamping = 0.8
        public var cancelDuration = 0.45
        public var cancelDamping = 0.75
        public var finishDuration = 0.37
        public var finishDamping = 0.9
        /// The zoom-out without a drag: ease-out cubic bezier.
        public var closeDuration = 0.25
        /// The pager's critically damped settle.
        public var pageSettleDuration = 0.35
        /// Double-tap zoom and the zoom's spring back into range.
        public var zoomDuration = 0.3
        public var zoomDamping = 1.0
        /// Grid rubber band spring back.
        public var bounceDuration = 0.5
        public var bounceDamping = 1.0
        public init() {}
    }

    public enum IdleAction: String, Equatable, Sendable, CaseIterable {
        case grid, slideshow, none
    }

    public struct Kiosk: Equatable, Sendable {
        /// Seconds without a touch before `idleAction`; 0 disables it.
        public var idleTimeout = 120.0
        public var idleAction = IdleAction.grid
        public var slideshowInterval = 8.0
        /// Seconds without a touch before the display is switched off; 0: never.
        public var blankAfter = 0.0
        public init() {}
    }

    /// Opening hours (SPEC §8): empty means always open.
    public struct Schedule: Equatable, Sendable {
        public var hours: [OpeningHours.WeeklyRule] = []
        public var closed: [CivilDate] = []
        public var special: [OpeningHours.SpecialDay] = []
        /// Seconds the screen stays on after a touch while closed; 0: a touch does nothing then.
        public var touchWakes = 120.0
        public init() {}

        public var openingHours: OpeningHours {
            OpeningHours(weekly: hours, closed: Set(closed), special: special)
        }
    }

    public struct Cache: Equatable, Sendable {
        /// Decoded pixels kept in memory.
        public var megabytes = 128
        /// Thumbnail cache on disk; nil: $CACHE_DIRECTORY when systemd sets it, else none.
        public var directory: String? = nil
        public init() {}
    }

    public enum LogLevel: String, Equatable, Sendable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    public struct Log: Equatable, Sendable {
        public var level = LogLevel.info
        public init() {}
    }

    /// The remote status and control server (SPEC §9).
    public struct Remote: Equatable, Sendable {
        /// nil (""): no server.
        public var listen: ListenAddress? = nil
        /// The bearer token for /screenshot and /control; unreadable or empty: those are off.
        public var tokenFile = "/etc/vitrine/remote.token"
        public init() {}
    }
}
