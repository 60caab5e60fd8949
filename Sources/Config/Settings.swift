import Logging
import RunLoopRules
import Scene

/// Every setting of SPEC §5: plain values, with no file format attached. A default is written once,
/// in the struct of the lowest module that reads it: the interaction's numbers in Scene's
/// `SceneParameters`, the idle and opening-hours rules in RunLoopRules' `KioskPolicy.Parameters`,
/// the log level as swift-log's; Config's own structs below hold what only the glue reads.
/// `ConfigLoader` (module ConfigFile) fills them from TOML through `SettingsSchema`, which maps
/// each key onto a key path in here; each reader takes its struct as it is.
public struct Settings: Equatable, Sendable {
    public var display = Display()
    public var input = Input()
    public var photos = Photos()
    /// The grid, pager, dismissal, gestures and springs (TOML: grid, pager, dismiss, animation,
    /// input.tap_*).
    public var scene = SceneParameters()
    /// The grid's colours, which the renderer reads.
    public var grid = Grid()
    public var captions = Captions()
    public var clips = Clips()
    /// The idle action, slideshow, blanking and opening hours (TOML: kiosk, schedule).
    public var kiosk = KioskPolicy.Parameters()
    public var cache = Cache()
    public var log = Log()
    public var remote = Remote()
    public var mqtt = MQTT()

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
        public init() {}
    }

    /// The order of the photos (`PhotoLibrary` sorts by it).
    public enum Sort: String, Equatable, Sendable, CaseIterable {
        /// Natural file-name order ("img2" before "img10").
        case name
        /// Oldest modification first; equal times by name.
        case modified
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

    /// The grid's colours; its geometry and scrolling are `SceneParameters.Grid`.
    public struct Grid: Equatable, Sendable {
        /// Drawn for photos not yet decoded.
        public var placeholderColor: UInt32 = 0x20_20_20
        public var backgroundColor: UInt32 = 0x00_00_00
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

    /// What a Live Photo's motion does (SPEC §12).
    public enum LivePhotos: String, Equatable, Sendable, CaseIterable {
        /// Touch and hold the photo in the pager for 0.5 s without moving: the motion plays once.
        case hold
        /// The motion plays once when the photo is opened.
        case open
        /// A Live Photo is its photo only.
        case off
    }

    /// SPEC §12: clips and Live Photos.
    public struct Clips: Equatable, Sendable {
        /// Clips play in the pager; false: their poster frame only.
        public var play = true
        /// A clip starts again at its end while its page is open.
        public var loop = true
        public var livePhotos = LivePhotos.hold
        /// Larger clips (4K: 8.3 MP) show their poster frame only, with a warning.
        public var maxMegapixels = 8.0
        public init() {}
    }

    public struct Cache: Equatable, Sendable {
        /// Decoded pixels kept in memory.
        public var megabytes = 128
        /// Thumbnail cache on disk; nil: $CACHE_DIRECTORY when systemd sets it, else none.
        public var directory: String? = nil
        public init() {}
    }

    public struct Log: Equatable, Sendable {
        public var level = Logger.Level.info
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

    /// MQTT and Home Assistant discovery (SPEC §14).
    public struct MQTT: Equatable, Sendable {
        /// nil (""): no MQTT.
        public var broker: MQTTBroker? = nil
        /// The prefix of the kiosk's topics; "%hostname%" is replaced by the host's name at start.
        public var topic = "vitrine/%hostname%"
        /// "": connect without a user name.
        public var username = ""
        /// The password, alone in a file only the service user reads; "": none.
        public var passwordFile = ""
        /// Publish Home Assistant's MQTT discovery config under `homeassistant/`.
        public var homeAssistant = true
        public init() {}
    }
}
