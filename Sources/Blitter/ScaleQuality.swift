/// How `drawScaled` samples the source.
public enum ScaleQuality: Sendable, Hashable {
    /// Weighted average of the four nearest source pixels: the still picture.
    case bilinear
    /// The one source pixel under the destination pixel's centre: cheaper, allowed while moving.
    case nearest
}
