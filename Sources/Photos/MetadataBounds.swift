/// The one bound per kind of metadata block, for every container (JPEG, PNG, WebP, HEIF, AVIF):
/// a block declared larger than its bound is not read, checked on its declared size before a byte
/// of it is read, copied or inflated, and is one warning naming the block and the bound (the photo
/// shows, unconverted or without that caption). A block within its bound is read at most once.
public enum MetadataBounds {
    /// EXIF: what a JPEG's APP1 segment holds (64 KB).
    public static let exifBytes = 64 * 1024
    /// XMP: 1 MB, as an XMP sidecar's. Real packets are a few kilobytes, padding included.
    public static let xmpBytes = 1 << 20
    /// ICC profiles: 4 MB. Real ones are a few kilobytes (Display P3: 536 bytes, sRGB2014: 3 KB),
    /// the largest LUT profiles about a megabyte.
    public static let iccBytes = 4 << 20

    /// What a container whose blocks are copied out of it (HEIF's items, through libheif) reads of
    /// them for one photo, in all: one XMP packet and a few EXIF blocks.
    public static let copiedBytes = xmpBytes + 4 * exifBytes

    /// "64 KB", "1 MB": a bound in messages.
    static func shown(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }

    /// The warning for a block of `kind` ("EXIF") in `container` ("the eXIf chunk") declared
    /// `declared` bytes, over `bound`.
    static func tooLarge(_ container: String, declared: Int, bound: Int, kind: String) -> String {
        "\(container) (\(declared) bytes) is over the \(shown(bound)) bound for \(kind): not read"
    }
}
