import CTOMLShim
import Quoting

/// What kind of TOML value a `TOMLValue` is.
enum TOMLType: Equatable {
    case table, array, string, int, double, bool, date, time, dateTime
}

/// A TOML value as plain Swift data, read from toml++ (Debian's libtomlplusplus) through CTOMLShim.
///
/// The whole document is copied out of toml++ once and its memory freed at once: TOMLKit 0.6, used
/// before, leaked every key, number and string it returned (LebJe/TOMLKit#26), a few kB per
/// config load and per SIGHUP.
indirect enum TOMLValue: Equatable {
    case table(TOMLTable)
    case array([TOMLValue])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    /// Dates and times as TOML writes them; no key of Vitrine's takes one.
    case date(String), time(String), dateTime(String)

    var type: TOMLType {
        switch self {
        case .table: .table
        case .array: .array
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .date: .date
        case .time: .time
        case .dateTime: .dateTime
        }
    }

    var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }
    var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .int(let value) = self { value } else { nil } }
    var double: Double? { if case .double(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// A string holding NUL, or an array or table holding one.
    var containsNUL: Bool {
        switch self {
        case .string(let text): text.utf8.contains(0)
        case .array(let elements): elements.contains { $0.containsNUL }
        case .table(let table): table.entries.contains { $0.value.containsNUL }
        default: false
        }
    }
}

/// Where something is written in a document, as toml++ counts: 1-based, the column in Unicode
/// scalars (a byte order mark takes none).
struct TOMLPosition: Equatable, Comparable {
    var line: Int
    var column: Int

    static func < (lhs: TOMLPosition, rhs: TOMLPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A TOML table: its keys (in toml++'s order, sorted by name) and where each entry is written.
struct TOMLTable: Equatable {
    var entries: [(key: String, value: TOMLValue, position: TOMLPosition?)]

    var keys: [String] { entries.map(\.key) }

    subscript(key: String) -> TOMLValue? {
        entries.first { $0.key == key }?.value
    }

    /// Where the entry begins: its key (`columns = 4`, `pager = { … }`), or its `[header]`'s
    /// bracket; a dotted key's entries at their own part (`columns` in `grid.columns = 4`).
    func position(of key: String) -> TOMLPosition? {
        entries.first { $0.key == key }?.position
    }

    /// Positions are where the values were read, not part of them.
    static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A document toml++ refused: its message and where.
struct TOMLParseFailure: Error {
    var message: String
    /// 1-based; 0 when toml++ gave no position.
    var line: Int
    var column: Int
}

extension TOMLTable {
    /// Parses a whole document with toml++.
    static func parse(_ text: String) throws(TOMLParseFailure) -> TOMLTable {
        var document = vt_toml_document()
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                vt_toml_parse($0, bytes.count, &document)
            }
        }
        defer { vt_toml_free(&document) }
        if let error = document.error {
            // toml++ quotes keys and text from the file in its messages: bounded like any other quote.
            throw TOMLParseFailure(message: Excerpt(String(cString: error)).description, line: Int(document.error_line),
                                   column: Int(document.error_column))
        }
        var reader = NodeReader(nodes: UnsafeBufferPointer(start: document.nodes, count: document.count))
        return reader.next().value.table ?? TOMLTable(entries: [])
    }
}

/// Rebuilds the tree from the shim's flat array, in which each table or array is followed by its
/// children.
private struct NodeReader {
    let nodes: UnsafeBufferPointer<vt_toml_node>
    var index = 0

    mutating func next() -> (key: String?, value: TOMLValue, position: TOMLPosition?) {
        let node = nodes[index]
        index += 1
        let key = node.key.map { text($0, node.key_length) }
        // The earlier of the key and the value: the key, but a `[header]`'s bracket before it.
        let keyPosition = TOMLPosition(line: Int(node.key_line), column: Int(node.key_column))
        let valuePosition = TOMLPosition(line: Int(node.line), column: Int(node.column))
        let position = [keyPosition, valuePosition].filter { $0.line > 0 && $0.column > 0 }.min()
        let value: TOMLValue
        switch node.kind {
        case VT_TOML_TABLE:
            var entries: [(key: String, value: TOMLValue, position: TOMLPosition?)] = []
            for _ in 0..<node.children {
                let child = next()
                entries.append((child.key ?? "", child.value, child.position))
            }
            value = .table(TOMLTable(entries: entries))
        case VT_TOML_ARRAY:
            value = .array((0..<node.children).map { _ in next().value })
        case VT_TOML_STRING: value = .string(text(node.text, node.text_length))
        case VT_TOML_INTEGER: value = .int(Int(node.integer))
        case VT_TOML_FLOAT: value = .double(node.number)
        case VT_TOML_BOOLEAN: value = .bool(node.boolean)
        case VT_TOML_DATE: value = .date(text(node.text, node.text_length))
        case VT_TOML_TIME: value = .time(text(node.text, node.text_length))
        default: value = .dateTime(text(node.text, node.text_length))
        }
        return (key, value, position)
    }

    private func text(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
