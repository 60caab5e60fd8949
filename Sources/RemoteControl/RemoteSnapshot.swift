/// What the kiosk looks like from outside at one moment: published by the run loop after each turn
/// (under a lock, see `RemoteState`) and read by the server's threads, which never touch the loop's
/// own objects.
public struct RemoteSnapshot: Sendable {
    public enum State: String, Sendable {
        case starting
        case waitingForDisplay = "waiting_for_display"
        case showing
        case displayOff = "display_off"
        /// The opening hours say closed (SPEC §8); the detail says until when.
        case closed
    }

    /// Encoded as is in `/status` (StatusJSON).
    public struct Display: Equatable, Sendable, Encodable {
        public var connector: String
        /// "1920x1080@60".
        public var mode: String
        /// False while the connector in use is unplugged.
        public var connected: Bool

        public init(connector: String, mode: String, connected: Bool) {
            self.connector = connector
            self.mode = mode
            self.connected = connected
        }
    }

    /// The current item when it is a clip or a Live Photo (SPEC §12), as `/status` tells it.
    public struct Clip: Equatable, Sendable, Encodable {
        /// "clip" or "live_photo".
        public var kind: String
        /// Its motion plays now.
        public var playing: Bool

        public init(kind: String, playing: Bool) {
            self.kind = kind
            self.playing = playing
        }
    }

    public var version: String
    public var state = State.starting
    /// Why, for `waitingForDisplay` and `displayOff`.
    public var stateDetail: String?
    /// The scene's mode ("grid", "opening", "pager", "dismissing", "closing"); nil without a display.
    public var mode: String?
    public var currentIndex: Int?
    public var currentFile: String?
    public var currentClip: Clip?
    public var photoCount = 0
    public var screenOn = false
    public var display: Display?
    public var inputDevices: [String] = []
    public var uptime = 0.0

    // The counters of /metrics, since start.
    public var framesDrawn = 0
    public var framesDropped = 0
    /// Compose time buckets (seconds): cumulative (upper bound, count) ending with +infinity.
    public var frameTimeBuckets: [(bound: Double, count: Int)] = []
    public var frameTimeSum = 0.0
    /// Touch-to-flip latency since start (SPEC §13), the same way.
    public var touchLatencyBuckets: [(bound: Double, count: Int)] = []
    public var touchLatencySum = 0.0
    public var photosShown = 0
    /// Files the last scan of the folder left out, by reason; every reason, zeros too.
    public var photosSkipped: [(reason: String, count: Int)] = []
    public var decodedBytes = 0
    public var touches = 0
    /// Clip frames shown, and passed over unseen (decoded too late, or faster than the display).
    public var clipFramesShown = 0
    public var clipFramesDropped = 0

    public init(version: String) {
        self.version = version
    }
}
