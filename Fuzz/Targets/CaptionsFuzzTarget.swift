import Photos

/// The `captions` fuzz target: the caption readers (SPEC §10) on arbitrary bytes. The first byte
/// chooses how the rest is read:
///
/// - 0: an XMP packet (`XMPCaption`, expat);
/// - 1: a Photoshop block's 8BIM resources (`IPTCCaption`);
/// - 2: an EXIF block's TIFF structure (ImageDescription, DateTimeOriginal);
/// - 3: a sidecar `NAME.txt`;
/// - 4: a whole photo file (the segment walk, then every block it finds);
/// - 5: the bytes as the payload of an XMP APP1, an EXIF APP1 and an APP13 segment of a JPEG.
///
/// Whatever is read is made a `Caption`, as the decode workers do (cleaned, bounded to the
/// Stream-Safe Text Format), with the date taken on.
public enum CaptionsFuzzTarget {
    public static func run(_ bytes: UnsafeRawBufferPointer) -> CaptionReader.Reading? {
        guard let mode = bytes.first else { return nil }
        let rest = Array(bytes.dropFirst())
        let reader = CaptionReader(includeDate: true, dateFormat: "%e %B %Y %H:%M")
        switch mode % 6 {
        case 0: return reading(XMPCaption.read(packet: rest[...]), .xmp)
        case 1: return reading(IPTCCaption.read(photoshopResources: rest[...]), .iptc)
        case 2:
            _ = EXIF.dateTimeOriginal(tiff: rest[...])
            return reading(EXIF.imageDescription(tiff: rest[...]), .exif)
        case 3: return reader.read(sidecar: rest, metadata: .none, photoPath: "fuzz.jpg")
        case 4: return reader.read(sidecar: nil, metadata: PhotoDecoder.metadata(in: rest) ?? .none, photoPath: "fuzz.jpg")
        default:
            let jpeg = [0xFF, 0xD8] + segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + rest)
                + segment(0xE1, Array("Exif".utf8) + [0, 0] + rest) + segment(0xED, Array("Photoshop 3.0".utf8) + [0] + rest)
                + [0xFF, 0xD9]
            return reader.read(sidecar: nil, metadata: PhotoDecoder.metadata(in: jpeg) ?? .none, photoPath: "fuzz.jpg")
        }
    }

    private static func reading(_ text: CaptionText, _ source: Caption.Source) -> CaptionReader.Reading? {
        guard case let .found(title, description) = text else { return nil }
        return CaptionReader.Reading(caption: Caption(title: title, description: description, source: source), warning: nil)
    }

    /// A JPEG segment of `payload`, cut to the 65,533 bytes a segment holds.
    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let body = payload.prefix(65_533)
        let length = body.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }
}
