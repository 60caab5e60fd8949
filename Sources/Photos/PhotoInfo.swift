import Foundation

/// One photo of the library, as its headers describe it (nothing decoded).
public struct PhotoInfo: Hashable, Sendable {
    public let path: String
    public let fileSize: Int
    public let modified: Date
    /// The size as stored in the JPEG frame header.
    public let storedSize: ImageSize
    public let orientation: Orientation
    /// The decoder's whole-image buffer (a progressive JPEG's coefficients), held while any
    /// decode of this file runs, whatever its output size.
    public let coefficientBufferBytes: Int
    /// The displayed size, after the EXIF orientation: the one layout uses.
    public var size: ImageSize { orientation.orientedSize(storedSize) }

    public init(path: String, fileSize: Int, modified: Date, storedSize: ImageSize, orientation: Orientation,
                coefficientBufferBytes: Int = 0) {
        self.path = path
        self.fileSize = fileSize
        self.modified = modified
        self.storedSize = storedSize
        self.orientation = orientation
        self.coefficientBufferBytes = coefficientBufferBytes
    }

    /// What a decode of this photo holds besides its output: the file, read whole, and the
    /// decoder's whole-image buffer.
    public var decodeSourceBytes: Int { fileSize + coefficientBufferBytes }

    /// The file name without its directory.
    public var name: String { (path as NSString).lastPathComponent }
}
