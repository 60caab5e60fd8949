/// What toml++ 3.4 must not be given, found before it parses the text: it aborts the process (an
/// assertion) or overflows its stack on these instead of reporting an error. Not a second parser:
/// it records nothing of the document (toml++ gives every key's and value's position); it only
/// skips strings, comments, arrays and inline tables well enough not to mistake their contents
/// for keys or headers.
struct TOMLCrashGuard {
    typealias Position = TOMLPosition

    /// The key path with the most parts (table, dotted key, inline tables), inside arrays too:
    /// toml++ must not see a path much deeper than `maximumKeyDepth`; the scan stops at the first.
    private(set) var deepestKey: (depth: Int, position: Position)?
    /// The first place where toml++ 3.4 asserts (aborting the process) instead of reporting an
    /// error, and what is wrong there: a table header whose key begins with anything but a bare
    /// key character, a quote or `]` (`[é]`, `[[[`, a `[` at the end of a line), a `}` where an
    /// array expects a value (`[}`, `[1, }`), a date followed by `T` and no time (`1979-05-27T:`).
    private(set) var crashingSyntax: (position: Position, message: String)?

    init(_ text: String) {
        // A byte order mark is allowed before the first line, and takes no column.
        let scalars = text.unicodeScalars
        var scanner = Scanner(Array(scalars.first == "\u{FEFF}" ? scalars.dropFirst() : scalars[...]))
        scanner.document()
        deepestKey = scanner.deepestKey
        crashingSyntax = scanner.crashingSyntax
    }

    /// Parts of a key path the loader accepts: far more than any setting has (two), far fewer than
    /// would exhaust toml++'s recursion over nested tables.
    static let maximumKeyDepth = 32
    /// Arrays and inline tables within each other: toml++ refuses more than 256.
    static let maximumNesting = 300
}

/// A lenient recursive-descent reader of TOML's structure: it knows strings, comments, arrays and
/// inline tables well enough to never mistake their contents for keys, and always moves forward.
private struct Scanner {
    let text: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1
    var deepestKey: (depth: Int, position: Position)?
    var crashingSyntax: (position: Position, message: String)?
    var nesting = 0

    typealias Position = TOMLPosition

    init(_ text: [Unicode.Scalar]) {
        self.text = text
    }

    var atEnd: Bool { index >= text.count }
    var here: Position { Position(line: line, column: column) }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < text.count ? text[index + offset] : nil
    }

    mutating func advance() {
        guard !atEnd else { return }
        if text[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    mutating func noteDepth(_ depth: Int, at position: Position) {
        if depth > deepestKey?.depth ?? 0 { deepestKey = (depth, position) }
        if depth > TOMLCrashGuard.maximumKeyDepth { index = text.count }  // refused anyway
    }

    mutating func checkTableHeaderKey(afterSecondBracket: Bool) {
        var ahead = 0
        while peek(ahead) == " " || peek(ahead) == "\t" { ahead += 1 }
        guard let scalar = peek(ahead) else { return }
        if scalar == "]" || scalar == "\"" || scalar == "'" || isBareKeyScalar(scalar) { return }
        if scalar == "[", ahead > 0, !afterSecondBracket { return }  // "[ [": toml++ reports it
        noteCrashingSyntax(at: Position(line: line, column: column + ahead),
                           "a table header must begin with a key (letters, digits, `_`, `-`, or quoted)")
    }

    /// toml++ 3.4 asserts on a date followed by `T` (or a space) and something else than the digits
    /// of a time (`1979-05-27T:`).
    mutating func checkDate(_ token: ArraySlice<Unicode.Scalar>, at position: Position) {
        let scalars = Array(token)
        guard scalars.count > 11, (0..<10).allSatisfy({ i in
            i == 4 || i == 7 ? scalars[i] == "-" : ("0"..."9").contains(scalars[i])
        }) else { return }
        let separator = scalars[10], next = scalars[11]
        let timeStarts = ("0"..."9").contains(next)
        let trailingBlank = separator == " " && (next == " " || next == "\t" || next == "\r")
        if "Tt ".unicodeScalars.contains(separator), !timeStarts, !trailingBlank {
            noteCrashingSyntax(at: position, "a date must be followed by a time (digits) or nothing")
        }
    }

    mutating func noteCrashingSyntax(at position: Position, _ message: String) {
        if crashingSyntax == nil { crashingSyntax = (position, message) }
    }

    // MARK: Structure

    mutating func document() {
        var table: [String] = []
        while true {
            skipBlank(newlines: true)
            guard let scalar = peek() else { return }
            let start = index
            if scalar == "[" {
                let position = here
                advance()
                let arrayOfTables = peek() == "["
                if arrayOfTables { advance() }
                checkTableHeaderKey(afterSecondBracket: arrayOfTables)
                let key = keyPath()
                noteDepth(key.count, at: position)
                table = key
                skipToEndOfLine()
            } else {
                keyValue(prefix: table)
            }
            if index == start { advance() }
        }
    }

    /// `key = value`; `prefix` nil means the key is inside an array, its depth counted from there.
    mutating func keyValue(prefix: [String]?) {
        let position = here
        let key = keyPath()
        noteDepth((prefix?.count ?? 0) + key.count, at: position)
        skipBlank(newlines: false)
        if peek() == "=" { advance() }
        skipBlank(newlines: false)
        value(path: prefix.map { $0 + key })
    }

    mutating func keyPath() -> [String] {
        var parts: [String] = []
        while true {
            skipBlank(newlines: false)
            switch peek() {
            case "\""?: parts.append(basicString())
            case "'"?: parts.append(literalString())
            default:
                var bare = ""
                while let scalar = peek(), isBareKeyScalar(scalar) {
                    bare.unicodeScalars.append(scalar)
                    advance()
                }
                guard !bare.isEmpty else { return parts }
                parts.append(bare)
            }
            skipBlank(newlines: false)
            guard peek() == "." else { return parts }
            advance()
        }
    }

    mutating func value(path: [String]?) {
        switch peek() {
        case "\""? where peek(1) == "\"" && peek(2) == "\"": multilineString(quote: "\"")
        case "'"? where peek(1) == "'" && peek(2) == "'": multilineString(quote: "'")
        case "\""?: _ = basicString()
        case "'"?: _ = literalString()
        case "["?:
            items(closedBy: "]") { reader in
                if reader.peek() == "}" { reader.noteCrashingSyntax(at: reader.here, "`}` where an array expects a value or `]`") }
                reader.value(path: nil)
            }
        case "{"?:
            items(closedBy: "}") { reader in reader.keyValue(prefix: path) }
        default:
            // Numbers, booleans, dates (which may contain a space): up to the next delimiter.
            let start = index, position = here
            while let scalar = peek(), !",]}#\n".unicodeScalars.contains(scalar) {
                advance()
            }
            checkDate(text[start..<index], at: position)
        }
    }

    /// An array's or inline table's items, from its opening bracket to `close`, separated by
    /// commas; nested past toml++'s limit the rest of the text is skipped (toml++ refuses it).
    private mutating func items(closedBy close: Unicode.Scalar, _ item: (inout Self) -> Void) {
        guard nesting < TOMLCrashGuard.maximumNesting else { index = text.count; return }
        nesting += 1
        defer { nesting -= 1 }
        advance()
        while true {
            skipBlank(newlines: true)
            guard let scalar = peek() else { return }
            let start = index
            if scalar == close { advance(); return }
            if scalar == "," { advance(); continue }
            item(&self)
            if index == start { advance() }
        }
    }

    // MARK: Lexical pieces

    mutating func skipBlank(newlines: Bool) {
        while let scalar = peek() {
            if scalar == " " || scalar == "\t" || scalar == "\r" || (newlines && scalar == "\n") {
                advance()
            } else if scalar == "#" {
                while let next = peek(), next != "\n" { advance() }
            } else {
                return
            }
        }
    }

    mutating func skipToEndOfLine() {
        while let scalar = peek(), scalar != "\n" { advance() }
    }

    func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": return true
        default: return false
        }
    }

    /// A "…" string, its escapes decoded (quoted keys must match the keys toml++ gives).
    mutating func basicString() -> String {
        var result = ""
        advance()
        while let scalar = peek(), scalar != "\n" {
            advance()
            if scalar == "\"" { return result }
            guard scalar == "\\", let escape = peek() else {
                result.unicodeScalars.append(scalar)
                continue
            }
            advance()
            switch escape {
            case "b": result += "\u{8}"
            case "t": result += "\t"
            case "n": result += "\n"
            case "f": result += "\u{C}"
            case "r": result += "\r"
            case "e": result += "\u{1B}"
            case "u", "U", "x":
                let digits = escape == "U" ? 8 : escape == "u" ? 4 : 2
                var hex = ""
                for _ in 0..<digits {
                    guard let digit = peek(), digit.properties.isASCIIHexDigit else { break }
                    hex.unicodeScalars.append(digit)
                    advance()
                }
                if let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code) {
                    result.unicodeScalars.append(decoded)
                }
            default: result.unicodeScalars.append(escape)
            }
        }
        return result
    }

    mutating func literalString() -> String {
        var result = ""
        advance()
        while let scalar = peek(), scalar != "\n" {
            advance()
            if scalar == "'" { return result }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// """…""" or '''…''', which may span lines and end in up to two extra quotes.
    mutating func multilineString(quote: Unicode.Scalar) {
        for _ in 0..<3 { advance() }
        while let scalar = peek() {
            if scalar == "\\" && quote == "\"" {
                advance()
                advance()
            } else if scalar == quote && peek(1) == quote && peek(2) == quote {
                for _ in 0..<3 { advance() }
                for _ in 0..<2 where peek() == quote { advance() }
                return
            } else {
                advance()
            }
        }
    }
}
