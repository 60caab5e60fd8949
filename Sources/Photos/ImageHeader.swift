import Clips
/// What a photo's headers say, checked by the decoder of its format: a size within the limits, the
/// orientation, and what the decoder holds while it decodes. Read from the file's first bytes only.
public struct ImageHeader: Equatable, Sendable {
    /// The format's name ("JPEG"), as its decoder calls it.
    public let format: String
    /// The size as stored, before the orientation is applied.
    public let storedSize: ImageSize
    public let orientation: Orientation
    /// The decoder's working memory besides its output, whatever the target size: what it holds
    /// for the whole image (a progressive JPEG's coefficients; the full picture, for a format that
    /// cannot scale while decoding). Counted against the cache while a decode runs.
    public let workingBytes: Int
    /// A decoder warning about the headers (junk between segments); the image may still be fine.
    public let warning: String?
    /// A clip's timing and codec (its poster frame is the image); nil for a still.
    public let clip: ClipInfo?

    public init(format: String, storedSize: ImageSize, orientation: Orientation, workingBytes: Int, warning: String? = nil,
                clip: ClipInfo? = nil) {
        self.clip = clip
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.workingBytes = workingBytes
        self.warning = warning
    }

    /// What a decode holds besides its output: the file, read whole for a still (a clip is read as
    /// its frames need), and `workingBytes`; what `DecodeOptions.memoryBudget` bounds.
    public func sourceBytes(fileSize: Int) -> Int {
        Self.sourceBytes(fileSize: fileSize, workingBytes: workingBytes, isClip: clip != nil)
    }

    static func sourceBytes(fileSize: Int, workingBytes: Int, isClip: Bool) -> Int {
        let (total, overflow) = (isClip ? 0 : max(0, fileSize)).addingReportingOverflow(max(0, workingBytes))
        return overflow ? .max : total
    }

    /// The displayed size, after the orientation: the one layout uses.
    public var size: ImageSize { orientation.orientedSize(storedSize) }
}
