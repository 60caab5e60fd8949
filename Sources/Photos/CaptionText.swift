/// What one caption source of a photo holds (a sidecar, an XMP packet, an IPTC block, EXIF):
/// nothing, its title and description, or bytes that break its format, with what is wrong.
public enum CaptionText: Equatable, Sendable {
    case absent
    case found(title: String?, description: String?)
    case malformed(String)
}
