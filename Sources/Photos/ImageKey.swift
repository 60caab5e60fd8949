/// A decoded image in the cache: a photo at one displayed size.
public struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    /// What the image is for. A full-screen image is cached with its mip levels (the transitions
    /// shrink it); a thumbnail (a grid cell) alone, and also on disk, when there is a disk cache,
    /// so that the next start need not decode the originals again.
    public enum Kind: Hashable, Sendable {
        case screen
        case thumbnail
    }

    public let path: String
    public let size: ImageSize
    public let kind: Kind

    public init(path: String, size: ImageSize, kind: Kind = .screen) {
        self.path = path
        self.size = size
        self.kind = kind
    }

    public var description: String { "\(path) @ \(size)\(kind == .thumbnail ? " (thumbnail)" : "")" }
}
