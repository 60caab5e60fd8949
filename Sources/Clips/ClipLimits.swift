/// The bounds a clip is checked against before anything is decoded (SPEC §4's rules for bad files,
/// applied to clips).
public struct ClipLimits: Sendable {
    /// Wider or taller than this is no real clip (FFmpeg's own limit is far higher, 16384 is what
    /// 8K video and every hardware decoder stay under).
    public static let maxDimension = 16384

    /// Megapixels per frame; a larger clip is refused before its decoder opens.
    public var maxMegapixels: Double
    /// The largest file read; a larger one is refused when it is opened.
    public var maxFileBytes: Int
    /// How many bytes libavformat may read to find the streams, and how much of the clip's time
    /// (microseconds): both bound the header read of a hostile or huge file.
    public var probeBytes: Int64 = 1 << 20
    public var analyzeMicroseconds: Int64 = 2_000_000
    /// More streams than a phone's clip has (video, sound, a few metadata tracks); more is refused
    /// by libavformat, so a file cannot make it allocate thousands of streams.
    public var maxStreams: Int32 = 32

    public init(maxMegapixels: Double = 100, maxFileBytes: Int = 4 << 30) {
        self.maxMegapixels = maxMegapixels
        self.maxFileBytes = maxFileBytes
    }
}
