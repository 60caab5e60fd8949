import Config
import Linux
import Quoting

/// The settings a config file and its drop-ins gave, and where each value came from.
public struct LoadedSettings: Equatable, Sendable {
    public var settings = Settings()
    /// `table.key` → "file:line" of the file that set the value last; keys left out are defaults.
    public var origins: [String: String] = [:]
    /// The files read, in order: the main file (if there) and its drop-ins.
    public var files: [String] = []

    public init() {}
}

/// Reads the TOML config file of SPEC §5 into `Settings`, then every `*.toml` in the folder named
/// like it with `.d` added, in lexical order, key by key: a later file's value replaces an earlier
/// one (one kiosk's own settings on top of a fleet's shared file). A missing table or key keeps its
/// default; every problem in every file is reported at once, each with its file, line and key.
public enum ConfigLoader {
    public static let defaultPath = "/etc/vitrine/vitrine.toml"

    /// A file the user named: it must exist.
    public static func load(path: String) throws(ConfigError) -> Settings {
        try read(path: path, mustExist: true).settings
    }

    /// The default file, which may not exist: then every setting is its default (or its drop-ins').
    public static func loadIfPresent(path: String = defaultPath) throws(ConfigError) -> Settings {
        try read(path: path, mustExist: false).settings
    }

    /// The file and its drop-ins, with where each value came from (`check-config`).
    /// `checkingDevices`: the device paths are looked at too (`check-config`): a `display.card`
    /// that is there but is no DRM card is an error. Not for `run` and the field tools, which
    /// open the card and say what it is (`vitrine displays` must list the cards whatever the
    /// config names).
    public static func read(path: String, mustExist: Bool,
                            checkingDevices: Bool = false) throws(ConfigError) -> LoadedSettings {
        var loaded = LoadedSettings()
        var problems: [ConfigError.Problem] = []
        switch TextFile.contents(atPath: path) {
        case .success(let text):
            loaded.files.append(path)
            problems += apply(text, file: path, to: &loaded)
        case .failure(let failure) where failure.isMissing && !mustExist:
            break
        case .failure(let failure):
            problems.append(.init(kind: .unreadable, message: failure.message))
        }
        let folder = dropInFolder(of: path)
        switch dropIns(in: folder) {
        case .success(let names):
            for name in names {
                let file = folder + "/" + name
                var fileProblems: [ConfigError.Problem]
                switch TextFile.contents(atPath: file) {
                case .success(let text):
                    loaded.files.append(file)
                    fileProblems = apply(text, file: file, to: &loaded)
                case .failure(let failure):
                    fileProblems = [.init(kind: .unreadable, message: failure.message)]
                }
                for index in fileProblems.indices { fileProblems[index].file = file }
                problems += fileProblems
            }
        case .failure(let error):
            problems.append(.init(kind: .unreadable, file: folder, message: "cannot list the drop-in folder: \(error.descriptionWithoutPath)"))
        }
        problems += crossCheck(loaded, mainFile: path, problems: problems)
        if checkingDevices { problems += checkDevices(loaded, mainFile: path, problems: problems) }
        guard problems.isEmpty else { throw ConfigError(path: path, problems: problems) }
        return loaded
    }

    /// `display.card` naming a node that is no DRM card, at the file and line that set it. Not
    /// when the key was rejected already: one message per mistake.
    static func checkDevices(_ loaded: LoadedSettings, mainFile: String,
                             problems: [ConfigError.Problem]) -> [ConfigError.Problem] {
        guard let card = loaded.settings.display.card, !problems.contains(where: { $0.key == "display.card" }),
              let problem = SettingsSchema.cardProblem(card) else { return [] }
        let (file, line) = loaded.origins["display.card"].map(Origin.split) ?? (mainFile, nil)
        return [.init(kind: .badFormat, line: line, file: file == mainFile ? nil : file, key: "display.card",
                      message: "`display.card` = \(quotedExcerpt(card)) \(problem)")]
    }

    /// `/etc/vitrine/vitrine.toml.d` for `/etc/vitrine/vitrine.toml`.
    public static func dropInFolder(of path: String) -> String {
        (path.hasSuffix("/") ? String(path.dropLast()) : path) + ".d"
    }

    /// The `*.toml` names in `folder` in lexical (byte) order; none when there is no folder. Hidden
    /// names are left out: an editor's or a fleet tool's file half written (`.vitrine.toml.swp`,
    /// `.10-site.toml.tmp`) is not a drop-in.
    static func dropIns(in folder: String) -> Result<[String], SystemError> {
        do {
            let names = try FileName.list(folder).map(\.name).filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
            return .success(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        } catch {
            return error.errno == .noSuchFileOrDirectory ? .success([]) : .failure(error)
        }
    }

    /// One document on its own: `path` only names the file in errors.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> Settings {
        var loaded = LoadedSettings()
        var problems = apply(text, file: path, to: &loaded)
        problems += crossCheck(loaded, mainFile: path, problems: problems)
        guard problems.isEmpty else { throw ConfigError(path: path, problems: problems) }
        return loaded.settings
    }

    /// Reads one document's keys over `loaded`; returns its problems in file order, without the file.
    static func apply(_ text: String, file: String, to loaded: inout LoadedSettings) -> [ConfigError.Problem] {
        if let nul = text.firstIndex(of: "\0") {
            // Raw NULs are not TOML; refused before toml++ with the line they are on.
            let line = text[..<nul].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            return [.init(kind: .syntax, line: line, message: "NUL character")]
        }
        // What toml++ 3.4 crashes on, refused before it parses: a dotted key of many thousands of
        // parts (valid TOML, but its recursion over the nested tables overflows the stack; no key
        // of Vitrine's is that deep) and the syntax errors it asserts on instead of reporting.
        let guarded = TOMLCrashGuard(text)
        if let deepest = guarded.deepestKey, deepest.depth > TOMLCrashGuard.maximumKeyDepth {
            return [.init(
                kind: .syntax, line: deepest.position.line, column: deepest.position.column,
                message: "a key nested \(deepest.depth) levels deep; at most \(TOMLCrashGuard.maximumKeyDepth) are allowed")]
        }
        if let (position, message) = guarded.crashingSyntax {
            return [.init(kind: .syntax, line: position.line, column: position.column, message: "invalid TOML: \(message)")]
        }
        let root: TOMLTable
        do {
            root = try TOMLTable.parse(text)
        } catch {
            // toml++ says "Error while parsing value: …"; the prefix makes the class plain.
            let detail = error.message.prefix(1).lowercased() + error.message.dropFirst()
            return [.init(kind: .syntax, line: error.line > 0 ? error.line : nil, column: error.column > 0 ? error.column : nil,
                          message: "invalid TOML: \(detail)")]
        }
        var reader = Reader(file: file)
        reader.read(root, into: &loaded)
        return reader.problems.sorted {
            ($0.line ?? 0, $0.column ?? 0, $0.key ?? "") < ($1.line ?? 0, $1.column ?? 0, $1.key ?? "")
        }
    }

    /// The rules between keys, whichever file set each: the error is at the file and line that set
    /// the key named. Not when either key was rejected: one message per mistake.
    static func crossCheck(_ loaded: LoadedSettings, mainFile: String,
                           problems: [ConfigError.Problem]) -> [ConfigError.Problem] {
        mqttCrossCheck(loaded, mainFile: mainFile, problems: problems) + zoomCrossCheck(loaded, mainFile: mainFile, problems: problems)
    }

    /// With a broker, mqtt.password_file needs mqtt.username: MQTT (3.1.1) has no password without
    /// a user name.
    static func mqttCrossCheck(_ loaded: LoadedSettings, mainFile: String,
                               problems: [ConfigError.Problem]) -> [ConfigError.Problem] {
        let mqtt = loaded.settings.mqtt
        let keys: Set = ["mqtt.password_file", "mqtt.username"]
        guard mqtt.broker != nil, !mqtt.passwordFile.isEmpty, mqtt.username.isEmpty, !problems.contains(where: { $0.key.map(keys.contains) ?? false }),
              let origin = loaded.origins["mqtt.password_file"] else { return [] }
        let (file, line) = Origin.split(origin)
        return [.init(kind: .badFormat, line: line, file: file == mainFile ? nil : file, key: "mqtt.password_file",
                      message: "`mqtt.password_file` is set but `mqtt.username` is not: MQTT sends a password only with a user name")]
    }

    /// pager.double_tap_zoom must not exceed pager.max_zoom (the error at double_tap_zoom, else max_zoom).
    static func zoomCrossCheck(_ loaded: LoadedSettings, mainFile: String,
                               problems: [ConfigError.Problem]) -> [ConfigError.Problem] {
        let pager = loaded.settings.scene.pager
        let keys: Set = ["pager.double_tap_zoom", "pager.max_zoom"]
        guard pager.doubleTapZoom > pager.maxZoom, !problems.contains(where: { $0.key.map(keys.contains) ?? false }),
              let origin = loaded.origins["pager.double_tap_zoom"] ?? loaded.origins["pager.max_zoom"] else { return [] }
        let (file, line) = Origin.split(origin)
        return [.init(kind: .outOfRange, line: line, file: file == mainFile ? nil : file, key: "pager.double_tap_zoom",
                      message: "`pager.double_tap_zoom` = \(formatNumber(pager.doubleTapZoom)) is out of range "
                        + "1...\(formatNumber(pager.maxZoom)) (1...pager.max_zoom)")]
    }
}

/// "file:line" and back.
enum Origin {
    static func join(_ file: String, _ line: Int?) -> String { line.map { "\(file):\($0)" } ?? file }

    static func split(_ origin: String) -> (file: String, line: Int?) {
        guard let colon = origin.lastIndex(of: ":"), let line = Int(origin[origin.index(after: colon)...]) else {
            return (origin, nil)
        }
        return (String(origin[..<colon]), line)
    }
}

/// One pass over a parsed document, collecting problems instead of stopping at the first; each is
/// placed where toml++ says its key (or table) is written.
private struct Reader {
    let file: String
    var problems: [ConfigError.Problem] = []

    init(file: String) {
        self.file = file
    }

    /// Each key the document sets replaces the value in `loaded`, which remembers where it came from.
    mutating func read(_ root: TOMLTable, into loaded: inout LoadedSettings) {
        // Entry by entry, never a lookup by name: a table of 85,000 keys is read in one pass.
        for (name, value, tablePosition) in root.entries {
            guard let schema = SettingsSchema.table(named: name) else {
                reportUnknown(name, value: value, at: tablePosition)
                continue
            }
            guard let table = value.table else {
                report(.wrongType, [name], "`\(name)` must be a table, got \(typeName(value))", at: tablePosition)
                continue
            }
            for (key, value, keyPosition) in table.entries {
                // A key without a position falls back to its table's.
                let position = keyPosition ?? tablePosition
                guard let setting = schema.key(named: key) else {
                    reportUnknown(key, in: schema, at: position)
                    continue
                }
                let fullName = "\(name).\(key)"
                if value.containsNUL {
                    // A `\u0000` escape: no path or name can hold it, and C would end the string there.
                    report(.badFormat, [name, key], "`\(fullName)` contains a NUL character (\\u0000), which no path or name can hold",
                           at: position)
                    continue
                }
                if let complaint = setting.read(value, fullName, &loaded.settings) {
                    report(complaint.kind, [name, key], complaint.message, at: position)
                } else {
                    loaded.origins[fullName] = Origin.join(file, position?.line)
                }
            }
        }
    }

    mutating func reportUnknown(_ name: String, value: TOMLValue, at position: TOMLPosition?) {
        if value.type == .table {
            let suggestion = Suggestion.closest(to: name, among: SettingsSchema.tableCandidates)
            report(.unknownTable, [name], "unknown table [\(Excerpt(name))]" + (suggestion.map { "; did you mean [\($0)]?" } ?? ""),
                   at: position, suggestion: suggestion)
        } else {
            let suggestion = closestKeyAnywhere(to: name)
            report(.unknownKey, [name], "unknown key `\(Excerpt(name))` outside any table"
                + (suggestion.map { "; did you mean `\($0)`?" } ?? ""), at: position, suggestion: suggestion)
        }
    }

    mutating func reportUnknown(_ key: String, in table: SettingTable, at position: TOMLPosition?) {
        // A key put in the wrong table is the likeliest mistake; then a typo within the table.
        let elsewhere = SettingsSchema.tablesByKey[key]?.first { $0 != table.name }
        let suggestion = elsewhere.map { "\($0).\(key)" }
            ?? Suggestion.closest(to: key, among: table.candidates)
            ?? closestKeyAnywhere(to: key)
        report(.unknownKey, [table.name, key], "unknown key `\(Excerpt(key))` in [\(table.name)]"
            + (suggestion.map { "; did you mean `\($0)`?" } ?? ""), at: position, suggestion: suggestion)
    }

    /// The closest key of any table, as `table.key`.
    func closestKeyAnywhere(to name: String) -> String? {
        Suggestion.closest(to: name, among: SettingsSchema.qualifiedKeys)
    }

    mutating func report(_ kind: ConfigError.Kind, _ path: [String], _ message: String, at position: TOMLPosition?,
                         key: String? = nil, suggestion: String? = nil) {
        problems.append(.init(kind: kind, line: position?.line, column: position?.column,
                              key: key ?? path.joined(separator: "."), suggestion: suggestion, message: message))
    }
}
