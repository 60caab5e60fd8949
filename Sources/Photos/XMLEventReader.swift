import CExpat

/// What `XMLEventReader` reports while it reads a document: elements by namespace and local name
/// (whatever prefix the document binds to the namespace), and the text between them. Comments and
/// processing instructions are not reported; a CDATA section is reported as its text.
protocol XMLEventHandler: AnyObject {
    func startElement(_ name: XMLName, attributes: [(name: XMLName, value: String)])
    func endElement(_ name: XMLName)
    /// Part of an element's text, as UTF-8 (one text may come in several parts).
    func text(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// An element or attribute name with its namespace resolved ("" for none).
struct XMLName: Equatable, Sendable {
    var namespace: String
    var local: String

    init(namespace: String, local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// Expat's "URI\u{1}local" (or just "local" outside any namespace).
    init(expat name: UnsafePointer<CChar>) {
        let text = String(cString: name)
        if let separator = text.lastIndex(of: XMLEventReader.separator) {
            namespace = String(text[..<separator])
            local = String(text[text.index(after: separator)...])
        } else {
            namespace = ""
            local = text
        }
    }
}

/// One XML document read with expat (Debian's libexpat), namespaces resolved, as a stream of
/// events to an `XMLEventHandler`. Owns its parser. Entities are never expanded: a document whose
/// DOCTYPE declares one is refused as soon as the declaration is read (as Python's defusedxml
/// does), so a billion-laughs document costs its own length and no more; external entities and
/// DTDs are never loaded (expat reads nothing by itself).
final class XMLEventReader {
    /// Between a name's namespace URI and its local name: a character no URI or name can hold.
    static let separator: Character = "\u{1}"

    enum Failure: Error, Equatable {
        /// Not well-formed: expat's reason, and where.
        case malformed(reason: String, line: Int, column: Int)
        case declaresEntities
        /// Larger than expat takes in one call.
        case tooLarge
    }

    private let parser: XML_Parser
    private weak var handler: XMLEventHandler?
    private var refusal: Failure?

    /// `handler` is told the events of the next `read`.
    init(handler: XMLEventHandler) {
        // The bytes are UTF-8 whatever the document's declaration says.
        parser = XML_ParserCreateNS("UTF-8", CChar(1))
        self.handler = handler
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { user, name, attributes in
            guard let user, let name else { return }
            let reader = Unmanaged<XMLEventReader>.fromOpaque(user).takeUnretainedValue()
            var pairs: [(name: XMLName, value: String)] = []
            var at = attributes
            while let pair = at, let key = pair[0], let value = pair[1] {
                pairs.append((XMLName(expat: key), String(cString: value)))
                at = pair + 2
            }
            reader.handler?.startElement(XMLName(expat: name), attributes: pairs)
        }, { user, name in
            guard let user, let name else { return }
            Unmanaged<XMLEventReader>.fromOpaque(user).takeUnretainedValue().handler?.endElement(XMLName(expat: name))
        })
        XML_SetCharacterDataHandler(parser) { user, text, length in
            guard let user, let text, length > 0 else { return }
            let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            Unmanaged<XMLEventReader>.fromOpaque(user).takeUnretainedValue().handler?
                .text(UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        XML_SetEntityDeclHandler(parser) { user, _, _, _, _, _, _, _, _ in
            guard let user else { return }
            let reader = Unmanaged<XMLEventReader>.fromOpaque(user).takeUnretainedValue()
            reader.refusal = .declaresEntities
            XML_StopParser(reader.parser, 0)  // XML_FALSE: not resumable
        }
    }

    deinit {
        XML_ParserFree(parser)
    }

    /// Reads the whole document (once). The events reported before a failure have been told.
    func read(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard bytes.count <= Int(Int32.max) else { throw .tooLarge }
        let status = XML_Parse(parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 1)
        if let refusal { throw refusal }
        guard status == XML_STATUS_OK else {
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "error"
            throw .malformed(reason: reason, line: Int(clamping: XML_GetCurrentLineNumber(parser)),
                             column: Int(clamping: XML_GetCurrentColumnNumber(parser)))
        }
    }
}
