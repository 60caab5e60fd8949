import Testing
@testable import ConfigFile

@Suite struct SourceMapTests {
    typealias Position = SourceMap.Position

    @Test func headersAndKeys() {
        let map = SourceMap("""
            # comment [not] a = table
            top = 1

            [grid]
               columns = 4 # trailing
            "spacing" = 2
            'odd key'.inner = 3
            """)
        #expect(map.position(of: ["top"]) == Position(line: 2, column: 1))
        #expect(map.position(of: ["grid"]) == Position(line: 4, column: 1))
        #expect(map.position(of: ["grid", "columns"]) == Position(line: 5, column: 4))
        #expect(map.position(of: ["grid", "spacing"]) == Position(line: 6, column: 1))
        #expect(map.position(of: ["grid", "odd key"]) == Position(line: 7, column: 1))
        #expect(map.position(of: ["grid", "odd key", "inner"]) == Position(line: 7, column: 1))
        #expect(map.position(of: ["not"]) == nil)
        #expect(map.position(of: ["a"]) == nil)
    }

    @Test func contentsOfStringsAndArraysAreNotKeys() {
        let map = SourceMap("""
            [photos]
            directory = \"\"\"
            [grid]
            columns = 9
            \"\"\"
            literal = '''
            sort = "x" '''
            list = [
              "[display]", # mode = 1
              { mode = 2 },
              [1, 2],
            ]
            escaped = "quote \\" [cache] megabytes = 1"
            watch = true
            """)
        #expect(map.position(of: ["photos", "directory"]) == Position(line: 2, column: 1))
        #expect(map.position(of: ["photos", "literal"]) == Position(line: 6, column: 1))
        #expect(map.position(of: ["photos", "list"]) == Position(line: 8, column: 1))
        #expect(map.position(of: ["photos", "escaped"]) == Position(line: 13, column: 1))
        #expect(map.position(of: ["photos", "watch"]) == Position(line: 14, column: 1))
        #expect(map.position(of: ["grid"]) == nil)
        #expect(map.position(of: ["grid", "columns"]) == nil)
        #expect(map.position(of: ["photos", "sort"]) == nil)
        #expect(map.position(of: ["display"]) == nil)
        #expect(map.position(of: ["photos", "mode"]) == nil)
        #expect(map.position(of: ["cache"]) == nil)
    }

    @Test func inlineTablesAndDottedKeys() {
        let map = SourceMap("""
            grid.columns = 3
            pager = { max_zoom = 8,
                      double_tap_zoom = 3 }
            [display]
            mode = "auto"
            """)
        #expect(map.position(of: ["grid"]) == Position(line: 1, column: 1))
        #expect(map.position(of: ["grid", "columns"]) == Position(line: 1, column: 1))
        #expect(map.position(of: ["pager"]) == Position(line: 2, column: 1))
        #expect(map.position(of: ["pager", "max_zoom"]) == Position(line: 2, column: 11))
        #expect(map.position(of: ["pager", "double_tap_zoom"]) == Position(line: 3, column: 11))
        #expect(map.position(of: ["display", "mode"]) == Position(line: 5, column: 1))
    }

    @Test func windowsLineEndings() {
        let map = SourceMap("[grid]\r\ncolumns = 4\r\n\r\nspacing = 2\r\n")
        #expect(map.position(of: ["grid", "spacing"]) == Position(line: 4, column: 1))
    }

    /// A dotted key of thousands of parts (valid TOML, found by the config fuzz target) records its
    /// first levels only: every prefix of it cost memory quadratic in its length.
    @Test func longDottedKeyRecordsOnlyItsFirstLevels() {
        let parts = Array(repeating: "a", count: 2000)
        let map = SourceMap("[grid]\n" + parts.joined(separator: ".") + " = 1\n")
        #expect(map.position(of: ["grid", "a", "a"]) == Position(line: 2, column: 1))
        #expect(map.position(of: ["grid", "a", "a", "a"]) == nil)
        #expect(map.position(of: ["grid"] + parts) == nil)
    }

    /// The map is read before toml++ sees the text: arrays nested a hundred thousand deep end the
    /// reading instead of overflowing the stack.
    @Test func deepNestingEnds() {
        let map = SourceMap("a = " + String(repeating: "[", count: 100_000) + "\n[grid]\ncolumns = 4\n")
        #expect(map.position(of: ["a"]) == Position(line: 1, column: 1))
        #expect(map.deepestKey?.depth == 1)
    }

    /// Only valid TOML reaches the map, but broken text must still end, not loop or trap.
    @Test(arguments: ["\"unterminated", "[", "]]]", "a = {", "a = [", "a = \"\"\"open", "= = =", "a.", "{}{}",
                      "x = '''\n", "\\", "a = \"\\u12\""])
    func malformedTextEnds(text: String) {
        _ = SourceMap(text)
    }
}
