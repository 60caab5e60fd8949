import Config

/// Reads the TOML config file of SPEC §5 into `Settings`. A missing table or key keeps its default;
/// every problem in the file is reported at once, each with its line and key.
public enum ConfigLoader {
    public static let defaultPath = "/etc/vitrine/vitrine.toml"

    /// A file the user named: it must exist.
    public static func load(path: String) throws(ConfigError) -> Settings {
        switch TextFile.contents(atPath: path) {
        case .success(let text):
            return try parse(text, path: path)
        case .failure(let failure):
            throw ConfigError(path: path, problems: [.init(kind: .unreadable, message: failure.message)])
        }
    }

    /// The default file, which may not exist: then every setting is its default.
    public static func loadIfPresent(path: String = defaultPath) throws(ConfigError) -> Settings {
        switch TextFile.contents(atPath: path) {
        case .success(let text):
            return try parse(text, path: path)
        case .failure(let failure) where failure.isMissing:
            return Settings()
        case .failure(let failure):
            throw ConfigError(path: path, problems: [.init(kind: .unreadable, message: failure.message)])
        }
    }

    /// `path` only names the file in errors.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> Settings {
        if let nul = text.firstIndex(of: "\0") {
            // Raw NULs are not TOML; refused before toml++ with the line they are on.
            let line = text[..<nul].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            throw ConfigError(path: path, problems: [.init(kind: .syntax, line: line, message: "NUL character")])
        }
        // What toml++ 3.4 crashes on, refused before it parses: a dotted key of many thousands of
        // parts (valid TOML, but its recursion over the nested tables overflows the stack; no key
        // of Vitrine's is that deep) and the syntax errors it asserts on instead of reporting.
        let sourceMap = SourceMap(text)
        if let deepest = sourceMap.deepestKey, deepest.depth > SourceMap.maximumKeyDepth {
            throw ConfigError(path: path, problems: [.init(
                kind: .syntax, line: deepest.position.line, column: deepest.position.column,
                message: "a key nested \(deepest.depth) levels deep; at most \(SourceMap.maximumKeyDepth) are allowed")])
        }
        if let (position, message) = sourceMap.crashingSyntax {
            throw ConfigError(path: path, problems: [.init(
                kind: .syntax, line: position.line, column: position.column, message: "invalid TOML: \(message)")])
        }
        let root: TOMLTable
        do {
            root = try TOMLTable.parse(text)
        } catch {
            // toml++ says "Error while parsing value: …"; the prefix makes the class plain.
            let detail = error.message.prefix(1).lowercased() + error.message.dropFirst()
            throw ConfigError(path: path, problems: [.init(
                kind: .syntax, line: error.line > 0 ? error.line : nil, column: error.column > 0 ? error.column : nil,
                message: "invalid TOML: \(detail)")])
        }
        var reader = Reader(sourceMap: sourceMap)
        let settings = reader.read(root)
        guard reader.problems.isEmpty else {
            let sorted = reader.problems.sorted {
                ($0.line ?? 0, $0.column ?? 0, $0.key ?? "") < ($1.line ?? 0, $1.column ?? 0, $1.key ?? "")
            }
            throw ConfigError(path: path, problems: sorted)
        }
        return settings
    }
}

/// One pass over a parsed document, collecting problems instead of stopping at the first.
private struct Reader {
    let sourceMap: SourceMap
    var problems: [ConfigError.Problem] = []
    /// `table.key` of the values that were rejected, so cross-checks don't pile onto them.
    var rejected: Set<String> = []

    init(sourceMap: SourceMap) {
        self.sourceMap = sourceMap
    }

    mutating func read(_ root: TOMLTable) -> Settings {
        var settings = Settings()
        for name in root.keys {
            guard let value = root[name] else { continue }
            guard let schema = SettingsSchema.table(named: name) else {
                reportUnknown(name, value: value)
                continue
            }
            guard let table = value.table else {
                report(.wrongType, [name], "`\(name)` must be a table, got \(typeName(value))")
                continue
            }
            for key in table.keys {
                guard let value = table[key] else { continue }
                guard let setting = schema.key(named: key) else {
                    reportUnknown(key, in: schema)
                    continue
                }
                let fullName = "\(name).\(key)"
                if value.containsNUL {
                    // A `\u0000` escape: no path or name can hold it, and C would end the string there.
                    rejected.insert(fullName)
                    report(.badFormat, [name, key], "`\(fullName)` contains a NUL character (\\u0000), which no path or name can hold")
                    continue
                }
                if let complaint = setting.read(value, fullName, &settings) {
                    rejected.insert(fullName)
                    report(complaint.kind, [name, key], complaint.message)
                }
            }
        }
        checkZoom(settings)
        return settings
    }

    /// pager.double_tap_zoom must not exceed pager.max_zoom, whichever of the two the file sets.
    mutating func checkZoom(_ settings: Settings) {
        let pager = settings.pager
        guard pager.doubleTapZoom > pager.maxZoom,
              !rejected.contains("pager.double_tap_zoom"), !rejected.contains("pager.max_zoom") else { return }
        let doubleTapPath = ["pager", "double_tap_zoom"]
        let path = sourceMap.position(of: doubleTapPath) != nil ? doubleTapPath : ["pager", "max_zoom"]
        report(.outOfRange, path, "`pager.double_tap_zoom` = \(formatNumber(pager.doubleTapZoom)) is out of range "
            + "1...\(formatNumber(pager.maxZoom)) (1...pager.max_zoom)", key: "pager.double_tap_zoom")
    }

    mutating func reportUnknown(_ name: String, value: TOMLValue) {
        if value.type == .table {
            let suggestion = Suggestion.closest(to: name, among: SettingsSchema.tables.map(\.name))
            report(.unknownTable, [name], "unknown table [\(name)]" + (suggestion.map { "; did you mean [\($0)]?" } ?? ""),
                   suggestion: suggestion)
        } else {
            let suggestion = closestKeyAnywhere(to: name)
            report(.unknownKey, [name], "unknown key `\(name)` outside any table"
                + (suggestion.map { "; did you mean `\($0)`?" } ?? ""), suggestion: suggestion)
        }
    }

    mutating func reportUnknown(_ key: String, in table: SettingTable) {
        // A key put in the wrong table is the likeliest mistake; then a typo within the table.
        let elsewhere = SettingsSchema.tables.first { $0.name != table.name && $0.key(named: key) != nil }
        let suggestion = elsewhere.map { "\($0.name).\(key)" }
            ?? Suggestion.closest(to: key, among: table.keys.map(\.name))
            ?? closestKeyAnywhere(to: key)
        report(.unknownKey, [table.name, key], "unknown key `\(key)` in [\(table.name)]"
            + (suggestion.map { "; did you mean `\($0)`?" } ?? ""), suggestion: suggestion)
    }

    /// The closest key of any table, as `table.key`.
    func closestKeyAnywhere(to name: String) -> String? {
        let all = SettingsSchema.tables.flatMap { table in table.keys.map { (table: table.name, key: $0.name) } }
        guard let key = Suggestion.closest(to: name, among: all.map(\.key)),
              let match = all.first(where: { $0.key == key }) else { return nil }
        return "\(match.table).\(match.key)"
    }

    mutating func report(_ kind: ConfigError.Kind, _ path: [String], _ message: String,
                         key: String? = nil, suggestion: String? = nil) {
        // A key without a recorded position falls back to its table's.
        let position = sourceMap.position(of: path) ?? sourceMap.position(of: Array(path.prefix(1)))
        problems.append(.init(kind: kind, line: position?.line, column: position?.column,
                              key: key ?? path.joined(separator: "."), suggestion: suggestion, message: message))
    }
}
