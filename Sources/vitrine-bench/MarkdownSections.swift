import Foundation
import Linux

/// Sections that one benchmark mode owns in a results page another mode writes (docs/benchmark.md:
/// the blitter's rows by the main mode, the formats' table by `formats`): each between
/// `<!-- section NAME -->` and `<!-- /section NAME -->`. A mode rewrites only its own section,
/// and the main mode keeps the others when it rewrites the page.
enum MarkdownSections {
    static func start(_ name: String) -> String { "<!-- section \(name) -->" }
    static func end(_ name: String) -> String { "<!-- /section \(name) -->" }

    /// The sections of `page`, whole (markers included), in order.
    static func sections(in page: String) -> [String] {
        var found: [String] = []
        var rest = page[...]
        while let open = rest.range(of: "<!-- section "), let close = rest[open.upperBound...].range(of: " -->") {
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard let finish = rest[close.upperBound...].range(of: end(name)) else { break }
            found.append(String(rest[open.lowerBound..<finish.upperBound]))
            rest = rest[finish.upperBound...]
        }
        return found
    }

    /// `page` with its section `name` replaced by `text` (appended when it has none).
    static func replacing(_ name: String, with text: String, in page: String) -> String {
        let section = start(name) + "\n" + text + end(name)
        if let old = sections(in: page).first(where: { $0.hasPrefix(start(name)) }), let range = page.range(of: old) {
            return page.replacingCharacters(in: range, with: section)
        }
        return page + (page.hasSuffix("\n\n") || page.isEmpty ? "" : "\n") + section + "\n"
    }

    /// Writes `text` as section `name` of the page at `path` (made if it does not exist).
    static func write(_ name: String, text: String, to path: String) throws {
        let page = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try AtomicFile.write(Array(replacing(name, with: text, in: page).utf8), to: path)
    }
}
