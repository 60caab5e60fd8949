/// A decoded image in the cache: a photo at one displayed size.
public struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let size: ImageSize

    public init(path: String, size: ImageSize) {
        self.path = path
        self.size = size
    }

    public var description: String { "\(path) @ \(size)" }
}
