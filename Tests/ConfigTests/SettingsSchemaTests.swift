import Config
import Foundation
import TestSupport
import Testing
@testable import ConfigFile

/// The schema, the fields of `Settings` and the example file are one: each key writes one field,
/// each field is written by one key and read outside Config, and each key is in
/// `Config/vitrine.toml` with its default. Adding a key that nothing reads, or forgetting it in the
/// example file, fails here.
@Suite struct SettingsSchemaTests {
    /// Fields of the readers' structs that are fixed, not settings: the double tap's limits, and the
    /// springs' initial velocity (a spring is configured at rest; the scene starts the dismissal's at
    /// the finger's speed).
    static let fixedFields: Set = [
        "scene.gestures.doubleTapInterval", "scene.gestures.doubleTapDistance",
        "scene.open.initialVelocity", "scene.grid.bounce.initialVelocity", "scene.pager.zoom.initialVelocity",
        "scene.dismiss.finish.initialVelocity", "scene.dismiss.cancel.initialVelocity",
    ]

    /// Every stored field of `value`, structs opened down to their plain values, as dotted paths
    /// ("scene.open.duration") with the value as text.
    static func fields(of value: Any, path: [String] = []) -> [String: String] {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .struct, !mirror.children.isEmpty else {
            return [path.joined(separator: "."): String(reflecting: value)]
        }
        var result: [String: String] = [:]
        for child in mirror.children {
            guard let label = child.label else { continue }
            result.merge(fields(of: child.value, path: path + [label])) { first, _ in first }
        }
        return result
    }

    /// `table.key` → the fields of `Settings` its samples change.
    static func fieldsWritten() -> [String: Set<String>] {
        let defaults = fields(of: Settings())
        var written: [String: Set<String>] = [:]
        for table in SettingsSchema.tables {
            for key in table.keys {
                var changed: Set<String> = []
                for sample in key.samples {
                    // A sample may break a rule between keys (double_tap_zoom above max_zoom).
                    guard let settings = try? ConfigLoader.parse("[\(table.name)]\n\(key.name) = \(sample)\n",
                                                                 path: "sample.toml") else { continue }
                    for (field, value) in fields(of: settings) where defaults[field] != value { changed.insert(field) }
                }
                written["\(table.name).\(key.name)"] = changed
            }
        }
        return written
    }

    @Test func everyKeyWritesOneFieldAndEveryFieldHasOneKey() {
        let written = Self.fieldsWritten()
        for (key, fields) in written.sorted(by: { $0.key < $1.key }) {
            #expect(fields.count == 1, "`\(key)` changes \(fields.sorted()) of Settings; one field expected")
        }
        var writers: [String: [String]] = [:]
        for (key, fields) in written {
            for field in fields { writers[field, default: []].append(key) }
        }
        for field in Self.fields(of: Settings()).keys.sorted() {
            if Self.fixedFields.contains(field) {
                #expect(writers[field] == nil, "\(field) is listed as fixed but `\(writers[field] ?? [])` write it")
            } else {
                #expect(writers[field]?.count == 1, "Settings.\(field) is written by \(writers[field]?.sorted() ?? []); one key expected")
            }
        }
        #expect(Self.fixedFields.isSubset(of: Self.fields(of: Settings()).keys))
    }

    /// What a field's reader writes: `settings.scene.open.duration` is read as `….open` and
    /// `….duration` (or `.open` whole, handed to Animation); a field no source outside Config and
    /// ConfigFile names is read by nobody.
    @Test func everyFieldAKeyWritesIsReadOutsideConfig() throws {
        let sources = try Self.swiftSources(under: TestPaths.root.appendingPathComponent("Sources").path,
                                            excluding: ["Config", "ConfigFile"])
        for (key, fields) in Self.fieldsWritten().sorted(by: { $0.key < $1.key }) {
            for field in fields {
                for name in field.split(separator: ".") {
                    let pattern = try Regex("\\.\(name)\\b")
                    #expect(sources.contains { $0.contains(pattern) },
                            "`\(key)` writes Settings.\(field), but nothing outside Config and ConfigFile reads `.\(name)`")
                }
            }
        }
    }

    /// Each key is in its table of the example file, set (or, when its default is "not set",
    /// commented out) to its default.
    @Test func exampleFileHasEveryKeyWithItsDefault() throws {
        let text = try String(contentsOfFile: TestPaths.exampleConfig, encoding: .utf8)
        var found: [String: (literal: String, commented: Bool)] = [:]
        let header = try Regex(#"\[([a-z_]+)\]"#), entry = try Regex(#"(# )?([a-z_]+) = (.*)"#)
        var table = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.wholeMatch(of: header) {
                table = String(match[1].substring ?? "")
            } else if let match = line.wholeMatch(of: entry), let name = match[2].substring.map(String.init),
                      SettingsSchema.table(named: table)?.key(named: name) != nil {
                found["\(table).\(name)"] = (String(match[3].substring ?? ""), match[1].substring != nil)
            }
        }
        let defaults = Settings()
        for table in SettingsSchema.tables {
            for key in table.keys {
                let name = "\(table.name).\(key.name)"
                guard let (literal, commented) = found[name] else {
                    Issue.record("`\(name)` is missing from Config/vitrine.toml's [\(table.name)]")
                    continue
                }
                guard let defaultLiteral = key.render(defaults) else {
                    #expect(commented, "`\(name)` is not set by default, so the example shows it commented out")
                    continue
                }
                let settings = try ConfigLoader.parse("[\(table.name)]\n\(key.name) = \(literal)\n", path: "example.toml")
                #expect(key.render(settings) == defaultLiteral,
                        "Config/vitrine.toml gives `\(name)` = \(literal); its default is \(defaultLiteral)")
            }
        }
    }

    static func swiftSources(under root: String, excluding modules: Set<String>) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var sources: [String] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), let module = path.split(separator: "/").first,
                  !modules.contains(String(module)) else { continue }
            sources.append(try String(contentsOfFile: root + "/" + path, encoding: .utf8))
        }
        return sources
    }
}
