/// The Object Name (2:05) and Caption/Abstract (2:120) of the IPTC-IIM record in a Photoshop block
/// (the payload of an APP13 segment that starts with "Photoshop 3.0\0"): 8BIM image resources,
/// of which resource 0x0404 holds the IPTC datasets. Every length is checked against the segment,
/// so a lying or truncated block is `malformed`, never a read past the end.
///
/// Text is UTF-8 when the envelope (1:90) says so ("ESC % G"), or when it is valid UTF-8; else it is
/// read as ISO 8859-1, as older tools wrote it (and as exiftool reads it).
public enum IPTCCaption {
    static let header = Array("Photoshop 3.0".utf8) + [0]
    static let resourceSignature = Array("8BIM".utf8)
    static let iptcResource: UInt16 = 0x0404

    /// The Object Name as the title, the Caption/Abstract as the description.
    public static func read(app13Payload payload: ArraySlice<UInt8>) -> CaptionText {
        guard payload.starts(with: header) else { return .absent }
        return read(photoshopResources: payload.dropFirst(header.count))
    }

    /// The same from the 8BIM resources alone (any format's Photoshop block).
    public static func read(photoshopResources resources: ArraySlice<UInt8>) -> CaptionText {
        let bytes = Array(resources)
        var at = 0
        while at < bytes.count {
            guard at + 12 <= bytes.count, bytes[at..<(at + 4)].elementsEqual(resourceSignature) else {
                // Padding at the end is fine; anything else is not an 8BIM resource.
                return bytes[at...].allSatisfy { $0 == 0 } ? .absent : .malformed("Photoshop block has no 8BIM resource at byte \(at)")
            }
            let id = UInt16(bytes[at + 4]) << 8 | UInt16(bytes[at + 5])
            let nameLength = Int(bytes[at + 6])
            let nameField = (1 + nameLength + 1) & ~1  // a Pascal string padded to an even size
            let sizeAt = at + 6 + nameField
            guard sizeAt + 4 <= bytes.count else { return .malformed("Photoshop resource \(id) runs past the end") }
            let size = bytes[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let dataAt = sizeAt + 4
            guard size <= bytes.count - dataAt else {
                return .malformed("Photoshop resource \(id) claims \(size) bytes, \(bytes.count - dataAt) are left")
            }
            if id == iptcResource { return datasets(bytes[dataAt..<(dataAt + size)]) }
            at = dataAt + ((size + 1) & ~1)
        }
        return .absent
    }

    /// The IPTC datasets: 0x1C, record, dataset, a 2-byte length, the data.
    static func datasets(_ bytes: ArraySlice<UInt8>) -> CaptionText {
        var texts: [String?] = [nil, nil]  // Object Name, Caption/Abstract
        var utf8Declared = false
        var rawName: ArraySlice<UInt8>?, rawCaption: ArraySlice<UInt8>?
        var at = bytes.startIndex
        while at < bytes.endIndex {
            if bytes[at] == 0 { at += 1; continue }  // padding
            guard bytes[at] == 0x1C, at + 5 <= bytes.endIndex else { return .malformed("IPTC data has no dataset marker at byte \(at - bytes.startIndex)") }
            let record = bytes[at + 1], dataset = bytes[at + 2]
            let length = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
            guard length & 0x8000 == 0 else { return .malformed("IPTC dataset \(record):\(dataset) has an extended length") }
            let dataAt = at + 5
            guard length <= bytes.endIndex - dataAt else {
                return .malformed("IPTC dataset \(record):\(dataset) claims \(length) bytes, \(bytes.endIndex - dataAt) are left")
            }
            let data = bytes[dataAt..<(dataAt + length)]
            switch (record, dataset) {
            case (1, 90): utf8Declared = data.elementsEqual([0x1B, 0x25, 0x47])
            case (2, 5): rawName = data
            case (2, 120): rawCaption = data
            default: break
            }
            at = dataAt + length
        }
        for (i, (raw, name)) in [(rawName, "Object Name"), (rawCaption, "Caption/Abstract")].enumerated() {
            guard let raw else { continue }
            if let text = String(validating: raw, as: UTF8.self) {
                texts[i] = text
            } else if utf8Declared {
                return .malformed("IPTC \(name) is declared UTF-8 but is not")
            } else {
                texts[i] = String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
            }
        }
        return texts == [nil, nil] ? .absent : .found(title: texts[0], description: texts[1])
    }
}
