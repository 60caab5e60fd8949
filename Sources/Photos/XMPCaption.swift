/// The title and description in an XMP packet (the payload of an APP1 segment that starts with
/// "http://ns.adobe.com/xap/1.0/\0"), read with a real XML parser (`XMLEventReader`, expat) as
/// exiftool, digiKam, Lightroom and darktable write them:
///
///     <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk</rdf:li></rdf:Alt></dc:title>
///
/// or as an attribute of `rdf:Description` (`dc:title="..."`), or as a simple literal. Names are
/// matched by namespace, so any prefix bound to Dublin Core's and RDF's URIs works. Of a language
/// alternative, the x-default item, else the first; an item with no text counts as none. Comments
/// are not text; CDATA is. The first `dc:title` (and `dc:description`) with text wins.
///
/// A packet that is not UTF-8, not well-formed, or declares entities (XMP never does: a DOCTYPE
/// with entities is how billion-laughs documents begin) is `malformed`; junk after the document's
/// end (the padding some writers leave) is not read.
public enum XMPCaption {
    static let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"

    public static func isXMP(_ payload: ArraySlice<UInt8>) -> Bool {
        payload.starts(with: header)
    }

    public static func read(app1Payload payload: ArraySlice<UInt8>) -> CaptionText {
        guard isXMP(payload) else { return .absent }
        return read(packet: payload.dropFirst(header.count))
    }

    /// The title and description of a bare XMP packet (any format's XMP block).
    public static func read(packet bytes: ArraySlice<UInt8>) -> CaptionText {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            return .malformed("XMP packet is not UTF-8")
        }
        let collector = PropertyCollector()
        let reader = XMLEventReader(handler: collector)
        var failure: XMLEventReader.Failure?
        bytes.withUnsafeBytes { buffer in
            do throws(XMLEventReader.Failure) { try reader.read(buffer) } catch { failure = error }
        }
        switch failure {
        case nil: break
        case .declaresEntities?:
            return .malformed("XMP packet declares entities (refused: XMP has none)")
        case .tooLarge?:
            return .malformed("XMP packet is larger than 2 GB")
        case let .malformed(reason, line, column)?:
            // Past the document's end (the padding, junk) what it held is read.
            guard collector.documentEnded else {
                return .malformed("XMP packet is not well-formed XML: \(reason) at line \(line), column \(column)")
            }
        }
        let title = collector.values[.title], description = collector.values[.description]
        return title == nil && description == nil ? .absent : .found(title: title, description: description)
    }

    enum Property: String, CaseIterable {
        case title, description
    }

    /// Follows the document's events to the two properties' values.
    final class PropertyCollector: XMLEventHandler {
        private(set) var values: [Property: String] = [:]
        /// The root element has closed.
        private(set) var documentEnded = false
        private var depth = 0

        /// The property being read: where its element is, its own text, its items so far.
        private struct Open {
            var property: Property
            var depth: Int
            var literal: [UInt8] = []
            var items: [(language: String?, text: String)] = []
        }
        private var open: Open?
        /// The `rdf:li` being read inside it.
        private var item: (language: String?, depth: Int, text: [UInt8])?

        func startElement(_ name: XMLName, attributes: [(name: XMLName, value: String)]) {
            depth += 1
            if open == nil {
                if name.namespace == XMPCaption.rdf, name.local == "Description" {
                    for (attribute, value) in attributes where attribute.namespace == XMPCaption.dublinCore {
                        if let property = Property(rawValue: attribute.local), values[property] == nil, !value.isEmpty {
                            values[property] = value
                        }
                    }
                } else if name.namespace == XMPCaption.dublinCore, let property = Property(rawValue: name.local),
                          values[property] == nil {
                    open = Open(property: property, depth: depth)
                }
            } else if item == nil, name.namespace == XMPCaption.rdf, name.local == "li" {
                let language = attributes.first { $0.name.namespace == XMPCaption.xml && $0.name.local == "lang" }?.value
                item = (language, depth, [])
            }
        }

        func endElement(_ name: XMLName) {
            defer {
                depth -= 1
                if depth == 0 { documentEnded = true }
            }
            if let finished = item, finished.depth == depth {
                open?.items.append((finished.language, String(decoding: finished.text, as: UTF8.self)))
                item = nil
            } else if let finished = open, finished.depth == depth {
                let items = finished.items.filter { !$0.text.isEmpty }
                let value = items.first { $0.language == "x-default" }?.text ?? items.first?.text
                    ?? String(decoding: finished.literal, as: UTF8.self)
                if !value.isEmpty, !items.isEmpty || finished.literal.contains(where: { !Self.isXMLSpace($0) }) {
                    values[finished.property] = value
                }
                open = nil
            }
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>) {
            if item != nil, item?.depth == depth {
                item?.text.append(contentsOf: bytes)
            } else if item == nil, open != nil, open?.depth == depth {
                open?.literal.append(contentsOf: bytes)
            }
        }

        private static func isXMLSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }
}
