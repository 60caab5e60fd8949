/// Where a player's frames come from: a clip decoder (`ClipReader`, FFmpeg) in the product, plain
/// values in the player's tests. Not thread-safe: one thread reads one source.
public protocol ClipFrameSource: AnyObject {
    var info: ClipInfo { get }
    /// The next frame in presentation order, upright, scaled to exactly `width` x `height` (the
    /// displayed orientation); nil at the end of the clip. A frame that cannot be decoded is
    /// skipped; an error means nothing more can be read.
    func nextFrame(width: Int, height: Int) throws -> ClipFrame?
    /// Back to the first frame (a loop).
    func rewind() throws
}
