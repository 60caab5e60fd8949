/// The title and description in an XMP packet (the payload of an APP1 segment that starts with
/// "http://ns.adobe.com/xap/1.0/\0"), as exiftool, digiKam, Lightroom and darktable write them:
///
///     <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk</rdf:li></rdf:Alt></dc:title>
///
/// The x-default item of each language alternative, else the first one. Not a general XML parser:
/// it looks for the two properties in the packet's text, bounded by the segment's length, and
/// anything it cannot follow (an unclosed element, text that is not UTF-8) is `malformed`.
public enum XMPCaption {
    static let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    public static func isXMP(_ payload: ArraySlice<UInt8>) -> Bool {
        payload.starts(with: header)
    }

    public static func read(app1Payload payload: ArraySlice<UInt8>) -> CaptionText {
        guard isXMP(payload) else { return .absent }
        return read(packet: payload.dropFirst(header.count))
    }

    /// The title and description of a bare XMP packet (any format's XMP block).
    public static func read(packet bytes: ArraySlice<UInt8>) -> CaptionText {
        guard let packet = String(validating: bytes, as: UTF8.self) else {
            return .malformed("XMP packet is not UTF-8")
        }
        do {
            let title = try property("dc:title", in: packet), description = try property("dc:description", in: packet)
            return title == nil && description == nil ? .absent : .found(title: title, description: description)
        } catch {
            return .malformed(error.message)
        }
    }

    struct Malformed: Error {
        let message: String
    }

    /// The text of a language-alternative property, or its simple attribute form (`dc:title="..."`).
    static func property(_ name: String, in packet: String) throws(Malformed) -> String? {
        let text = Substring(packet).utf8
        if let open = find("<\(name)>", in: text, from: text.startIndex) ?? find("<\(name) ", in: text, from: text.startIndex) {
            guard let close = find("</\(name)>", in: text, from: open.upperBound) else {
                throw Malformed(message: "XMP \(name) is not closed")
            }
            return try alternative(text[open.upperBound..<close.lowerBound], name: name)
        }
        if let attribute = find(" \(name)=\"", in: text, from: text.startIndex) {
            guard let end = text[attribute.upperBound...].firstIndex(of: UInt8(ascii: "\"")) else {
                throw Malformed(message: "XMP \(name) attribute is not closed")
            }
            return decodeEntities(String(Substring(text[attribute.upperBound..<end])))
        }
        return nil
    }

    /// The x-default `rdf:li` of an `rdf:Alt` (or the first `rdf:li`).
    private static func alternative(_ body: Substring.UTF8View, name: String) throws(Malformed) -> String? {
        var first: String?
        var at = body.startIndex
        while let open = find("<rdf:li", in: body, from: at) {
            guard let tagEnd = body[open.upperBound...].firstIndex(of: UInt8(ascii: ">")) else {
                throw Malformed(message: "XMP \(name) has an unclosed rdf:li tag")
            }
            let attributes = String(Substring(body[open.upperBound..<tagEnd]))
            if attributes.hasSuffix("/") {  // <rdf:li xml:lang="x-default"/>: empty
                at = body.index(after: tagEnd)
                continue
            }
            let contentStart = body.index(after: tagEnd)
            guard let close = find("</rdf:li>", in: body, from: contentStart) else {
                throw Malformed(message: "XMP \(name) has an rdf:li that is not closed")
            }
            let value = decodeEntities(String(Substring(body[contentStart..<close.lowerBound])))
            if attributes.contains("xml:lang=\"x-default\"") || attributes.contains("xml:lang='x-default'") { return value }
            if first == nil { first = value }
            at = close.upperBound
        }
        return first
    }

    private static func find(_ needle: String, in text: Substring.UTF8View, from start: Substring.UTF8View.Index) -> Range<Substring.UTF8View.Index>? {
        let pattern = Array(needle.utf8)
        guard let head = pattern.first else { return nil }
        var at = start
        while let candidate = text[at...].firstIndex(of: head) {
            if text[candidate...].starts(with: pattern) {
                return candidate..<text.index(candidate, offsetBy: pattern.count)
            }
            at = text.index(after: candidate)
        }
        return nil
    }

    /// XML's five named entities and numeric references; anything else is left as it is.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            var replacement: String?
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                let value = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                replacement = value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let replacement {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return result + rest
    }
}
