/// The metadata blocks captions are read from (SPEC §10, §11), whatever the format carried them
/// in: a JPEG's APP1 and APP13 segments, later HEIF items, WebP chunks, PNG eXIf and iTXt. Each
/// block is the bare structure, without the container's signature; in file order.
public struct ImageMetadata: Equatable, Sendable {
    /// EXIF: TIFF structures ("II*\0" or "MM\0*"...): ImageDescription, DateTimeOriginal.
    public var exif: [ArraySlice<UInt8>] = []
    /// XMP packets (UTF-8 XML): dc:title, dc:description.
    public var xmp: [ArraySlice<UInt8>] = []
    /// Photoshop image resources (8BIM blocks), of which 0x0404 holds the IPTC-IIM record.
    public var photoshop: [ArraySlice<UInt8>] = []
    /// Segments past the container's bound on metadata blocks (JPEGLayout.maxMetadataSegments):
    /// not read, and said.
    public var skippedSegments = 0
    /// Blocks over their bound (`MetadataBounds`), not read: one line each naming the block and
    /// the bound, which the caption's warning says.
    public var unread: [String] = []

    public init(exif: [ArraySlice<UInt8>] = [], xmp: [ArraySlice<UInt8>] = [], photoshop: [ArraySlice<UInt8>] = []) {
        self.exif = exif
        self.xmp = xmp
        self.photoshop = photoshop
    }

    public static let none = ImageMetadata()
}
