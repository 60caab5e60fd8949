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
    /// What the decode holds besides its output buffers (the file, the decoder's whole-image
    /// buffer), counted against the cache while it runs. Not part of the key's identity.
    public let sourceBytes: Int
    /// The part of `sourceBytes` that is the decoder's own whole-image buffer (a progressive JPEG's
    /// coefficients, the full picture of a format that cannot scale while decoding). Not part of
    /// the key's identity.
    public let decoderBytes: Int
    /// The file as the library scan read it; a decode of anything else is refused (`.changed`).
    /// nil: whatever the file is now. Not part of the key's identity.
    public let version: FileVersion?
    /// The size the file is decoded at before a centred crop to `size` (a panorama's thumbnail:
    /// `ImageSize.thumbnailDecodeSize`); nil: decoded at `size`. Not part of the key's identity.
    public let decodeSize: ImageSize?

    public init(path: String, size: ImageSize, kind: Kind = .screen, sourceBytes: Int = 0, decoderBytes: Int = 0,
                version: FileVersion? = nil, decodeSize: ImageSize? = nil) {
        self.path = path
        self.size = size
        self.kind = kind
        // A decode cropped afterwards holds its whole output (4 bytes a pixel) while it runs.
        let cropped = decodeSize.flatMap { $0 == size ? nil : $0 }
        let (whole, overflow) = (cropped?.pixelCount ?? 0).multipliedReportingOverflow(by: 4)
        let (total, sumOverflow) = sourceBytes.addingReportingOverflow(whole)
        self.sourceBytes = overflow || sumOverflow ? .max : total
        self.decoderBytes = decoderBytes
        self.version = version
        self.decodeSize = cropped
    }

    /// `photo` decoded at `size`, or at `decodeSize` and cropped to `size`.
    public init(photo: PhotoInfo, size: ImageSize, kind: Kind, decodeSize: ImageSize? = nil) {
        self.init(path: photo.path, size: size, kind: kind, sourceBytes: photo.decodeSourceBytes,
                  decoderBytes: photo.decoderBytes, version: photo.version, decodeSize: decodeSize)
    }

    /// True when the decode holds a whole image of `DecodeQueue.wholeImageBytes` or more besides
    /// its output: such decodes run one at a time, whatever the number of workers.
    public var holdsLargeWholeImage: Bool { decoderBytes >= DecodeQueue.wholeImageBytes }

    public static func == (lhs: ImageKey, rhs: ImageKey) -> Bool {
        lhs.path == rhs.path && lhs.size == rhs.size && lhs.kind == rhs.kind
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(size)
        hasher.combine(kind)
    }

    public var description: String { "\(path) @ \(size)\(kind == .thumbnail ? " (thumbnail)" : "")" }
}
