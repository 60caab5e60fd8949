/// One clip as its container describes it (SPEC §12), nothing decoded: what the library lays out,
/// the grid's duration label and the player's timing need.
public struct ClipInfo: Hashable, Sendable {
    /// The container FFmpeg found ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
    public let container: String
    /// The video codec's name as FFmpeg calls it ("h264", "hevc", "vp9", "av1").
    public let codec: String
    /// The coded picture's size, before the display matrix is applied.
    public let storedWidth: Int
    public let storedHeight: Int
    /// Degrees clockwise the picture turns for display (0, 90, 180, 270): the display matrix of a
    /// phone held upright.
    public let rotation: Int
    /// Seconds from the first frame's presentation to the end of the last.
    public let duration: Double
    /// Frames per second, on average (the stream's own rate; 0 when the container does not say).
    public let frameRate: Double

    public init(container: String, codec: String, storedWidth: Int, storedHeight: Int, rotation: Int,
                duration: Double, frameRate: Double) {
        self.container = container
        self.codec = codec
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.rotation = rotation
        self.duration = duration
        self.frameRate = frameRate
    }

    /// The displayed size, after the rotation.
    public var displayWidth: Int { rotation % 180 == 0 ? storedWidth : storedHeight }
    public var displayHeight: Int { rotation % 180 == 0 ? storedHeight : storedWidth }

    /// Pixels per frame, in millions (what `clips.max_megapixels` bounds).
    public var megapixels: Double { Double(storedWidth) * Double(storedHeight) / 1_000_000 }

    /// The duration as the grid's cell shows it: `0:12`, `1:05`, `1:02:03`; whole seconds,
    /// rounded down, and at least `0:01` for a clip shorter than a second.
    public var durationLabel: String {
        let seconds = duration.isFinite ? max(1, Int(min(duration, 359_999))) : 1
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
