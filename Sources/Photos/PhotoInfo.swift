import Clips
import Foundation

/// One still picture of the library, as its headers describe it (nothing decoded), whatever its
/// format.
public struct PhotoInfo: Hashable, Sendable {
    public let path: String
    public let fileSize: Int
    public let modified: Date
    /// The format its content says it is ("JPEG"), as its decoder names it.
    public let format: String
    /// The size as stored in the file, before the orientation is applied.
    public let storedSize: ImageSize
    public let orientation: Orientation
    /// The decoder's working memory besides its output, whatever the target (a progressive
    /// JPEG's coefficients): `ImageHeader.workingBytes`.
    public let decoderBytes: Int
    /// A clip's timing and codec, when the file is a clip (its poster frame is this picture).
    public let clip: ClipInfo?
    /// The displayed size, after the orientation: the one layout uses.
    public var size: ImageSize { orientation.orientedSize(storedSize) }

    public init(path: String, fileSize: Int, modified: Date, format: String, storedSize: ImageSize,
                orientation: Orientation, decoderBytes: Int = 0, clip: ClipInfo? = nil) {
        self.clip = clip
        self.path = path
        self.fileSize = fileSize
        self.modified = modified
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.decoderBytes = decoderBytes
    }

    public init(path: String, fileSize: Int, modified: Date, header: ImageHeader) {
        self.init(path: path, fileSize: fileSize, modified: modified, format: header.format, storedSize: header.storedSize,
                  orientation: header.orientation, decoderBytes: header.workingBytes,
                  clip: header.clip)
    }

    /// What a decode of this photo holds besides its output: the file, read whole (a clip's is
    /// read as its frames need), and the decoder's working memory.
    public var decodeSourceBytes: Int {
        ImageHeader.sourceBytes(fileSize: fileSize, workingBytes: decoderBytes, isClip: clip != nil)
    }

    /// The file as the scan read it: what a decode of this photo must find.
    public var version: FileVersion { FileVersion(size: fileSize, modified: modified) }

    /// The file name without its directory.
    public var name: String { (path as NSString).lastPathComponent }
}
