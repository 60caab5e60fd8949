/// An image of a library item that the view wants: what Rendering says, most urgent first; the
/// size, and so the cache key, is Photos' business (`LibraryImages`).
public enum ImageRequest: Hashable, Sendable {
    /// The item's grid thumbnail: covering a cell.
    case thumbnail(Int)
    /// The item at its size on screen in the pager, with its mip levels.
    case screen(Int)
}
