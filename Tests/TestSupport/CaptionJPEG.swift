import Foundation

/// Photos with captions built here: a small real JPEG with APP1 (EXIF, XMP) and APP13 (Photoshop
/// block with IPTC) segments inserted after its SOI marker, as cameras and editors place them.
public enum CaptionJPEG {
    public static let base = try! Data(contentsOf: URL(fileURLWithPath: TestJPEGs.path("variants/derived_17x9_crop_sunset.jpg")))

    public static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    public static func photo(_ segments: [[UInt8]]) -> [UInt8] {
        let jpeg = [UInt8](base)
        return Array(jpeg[..<2]) + segments.flatMap { $0 } + Array(jpeg[2...])
    }

    public static func xmp(title: String?, description: String?, extra: String = "") -> [UInt8] {
        func alt(_ name: String, _ value: String?) -> String {
            guard let value else { return "" }
            return "<\(name)><rdf:Alt><rdf:li xml:lang=\"de\">Nicht das</rdf:li>"
                + "<rdf:li xml:lang=\"x-default\">\(value)</rdf:li></rdf:Alt></\(name)>"
        }
        let packet = "<?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>"
            + "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about=''"
            + " xmlns:dc='http://purl.org/dc/elements/1.1/'>\(alt("dc:title", title))\(alt("dc:description", description))\(extra)"
            + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>"
        return xmpPayload(Array(packet.utf8))
    }

    public static func xmpPayload(_ packet: [UInt8]) -> [UInt8] {
        segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + packet)
    }

    public static func iptcData(name: [UInt8]?, caption: [UInt8]?, declareUTF8: Bool = true) -> [UInt8] {
        func dataset(_ record: UInt8, _ number: UInt8, _ data: [UInt8]) -> [UInt8] {
            [0x1C, record, number, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
        }
        var data: [UInt8] = declareUTF8 ? dataset(1, 90, [0x1B, 0x25, 0x47]) : []
        data += dataset(2, 0, [0, 4])
        if let name { data += dataset(2, 5, name) }
        if let caption { data += dataset(2, 120, caption) }
        return data
    }

    /// A Photoshop block: a resource before the IPTC one (as Photoshop writes them), then 0x0404.
    public static func iptc(_ data: [UInt8], claimedSize: Int? = nil) -> [UInt8] {
        func resource(_ id: UInt16, _ bytes: [UInt8], size: Int? = nil) -> [UInt8] {
            let size = size ?? bytes.count
            var out = Array("8BIM".utf8) + [UInt8(id >> 8), UInt8(id & 0xFF), 0, 0]
            out += [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            return out + bytes + (bytes.count % 2 == 1 ? [0] : [])
        }
        let payload = Array("Photoshop 3.0".utf8) + [0] + resource(0x03ED, [0, 0x48, 0, 0, 0, 1, 0, 1])
            + resource(0x0404, data, size: claimedSize)
        return segment(0xED, payload)
    }

    public static func iptc(name: String?, caption: String?) -> [UInt8] {
        iptc(iptcData(name: name.map { Array($0.utf8) }, caption: caption.map { Array($0.utf8) }))
    }

    /// EXIF in big-endian TIFF: IFD0 with ImageDescription and a pointer to the Exif IFD holding
    /// DateTimeOriginal. `descriptionOffset` lets a test make the description point past the end.
    public static func exif(description: [UInt8]?, date: String? = nil, descriptionOffset: UInt32? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let descriptionBytes: [UInt8] = description.map { $0 + [0] } ?? []
        let dateBytes: [UInt8] = date.map { Array($0.utf8) + [0] } ?? []
        let ifd0Count = (description == nil ? 0 : 1) + 1
        let ifd0Size = 2 + ifd0Count * 12 + 4
        let exifIFDOffset = 8 + ifd0Size
        let exifIFDSize = 2 + 12 + 4
        let dataOffset = exifIFDOffset + exifIFDSize
        var tiff: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8)
        tiff += u16(ifd0Count)
        if description != nil {
            tiff += u16(0x010E) + u16(2) + u32(descriptionBytes.count) + u32(Int(descriptionOffset ?? UInt32(dataOffset)))
        }
        tiff += u16(0x8769) + u16(4) + u32(1) + u32(exifIFDOffset)
        tiff += u32(0)
        tiff += u16(1) + u16(0x9003) + u16(2) + u32(dateBytes.count) + u32(dataOffset + descriptionBytes.count)
        tiff += u32(0)
        tiff += descriptionBytes + dateBytes
        return segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
    }
}
