import Testing
@testable import ConfigFile

/// Where toml++ says each table and key is written: what every located error and `check-config`'s
/// `file:line` use. One parse gives them; nothing reads the text a second time for them.
@Suite struct TOMLPositionTests {
    typealias Position = TOMLPosition

    func position(_ text: String, _ path: String...) throws -> Position? {
        var table = try TOMLTable.parse(text)
        for name in path.dropLast() {
            guard let inner = table[name]?.table else { return nil }
            table = inner
        }
        return table.position(of: path.last!)
    }

    @Test func headersAndKeys() throws {
        let text = """
            # comment [not] a = table
            top = 1

            [grid]
               columns = 4 # trailing
            "spacing" = 2
            'odd key'.inner = 3
            """
        #expect(try position(text, "top") == Position(line: 2, column: 1))
        #expect(try position(text, "grid") == Position(line: 4, column: 1))
        #expect(try position(text, "grid", "columns") == Position(line: 5, column: 4))
        #expect(try position(text, "grid", "spacing") == Position(line: 6, column: 1))
        #expect(try position(text, "grid", "odd key") == Position(line: 7, column: 1))
        #expect(try position(text, "not") == nil)
        #expect(try position(text, "a") == nil)
    }

    @Test func contentsOfStringsAndArraysAreNotKeys() throws {
        let text = """
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
            """
        #expect(try position(text, "photos", "directory") == Position(line: 2, column: 1))
        #expect(try position(text, "photos", "literal") == Position(line: 6, column: 1))
        #expect(try position(text, "photos", "list") == Position(line: 8, column: 1))
        #expect(try position(text, "photos", "escaped") == Position(line: 13, column: 1))
        #expect(try position(text, "photos", "watch") == Position(line: 14, column: 1))
        #expect(try position(text, "grid") == nil)
        #expect(try position(text, "photos", "sort") == nil)
        #expect(try position(text, "display") == nil)
        #expect(try position(text, "photos", "mode") == nil)
        #expect(try position(text, "cache") == nil)
    }

    /// An inline table is where its key is; a dotted key's table where the key begins, and its
    /// last part where that part is.
    @Test func inlineTablesAndDottedKeys() throws {
        let text = """
            grid.columns = 3
            pager = { max_zoom = 8, double_tap_zoom = 3 }
            [display]
            mode = "auto"
            """
        #expect(try position(text, "grid") == Position(line: 1, column: 1))
        #expect(try position(text, "grid", "columns") == Position(line: 1, column: 6))
        #expect(try position(text, "pager") == Position(line: 2, column: 1))
        #expect(try position(text, "pager", "max_zoom") == Position(line: 2, column: 11))
        #expect(try position(text, "pager", "double_tap_zoom") == Position(line: 2, column: 25))
        #expect(try position(text, "display", "mode") == Position(line: 4, column: 1))
    }

    @Test func windowsLineEndingsAndByteOrderMark() throws {
        #expect(try position("[grid]\r\ncolumns = 4\r\n\r\nspacing = 2\r\n", "grid", "spacing") == Position(line: 4, column: 1))
        #expect(try position("\u{FEFF}[grid]\ncolumns = 4\n", "grid") == Position(line: 1, column: 1))
    }
}

/// The scan for what toml++ 3.4 must not be given.
@Suite struct TOMLCrashGuardTests {
    @Test func longDottedKeyIsFoundWhereItBegins() {
        let parts = Array(repeating: "a", count: 2000)
        let guarded = TOMLCrashGuard("[grid]\n" + parts.joined(separator: ".") + " = 1\n")
        #expect(guarded.deepestKey?.depth == 2001)
        #expect(guarded.deepestKey?.position == TOMLPosition(line: 2, column: 1))
    }

    /// Arrays nested a hundred thousand deep end the scan instead of overflowing the stack.
    @Test func deepNestingEnds() {
        let guarded = TOMLCrashGuard("a = " + String(repeating: "[", count: 100_000) + "\n[grid]\ncolumns = 4\n")
        #expect(guarded.deepestKey?.depth == 1)
    }

    /// Broken text must end, not loop or trap.
    @Test(arguments: ["\"unterminated", "[", "]]]", "a = {", "a = [", "a = \"\"\"open", "= = =", "a.", "{}{}",
                      "x = '''\n", "\\", "a = \"\\u12\""])
    func malformedTextEnds(text: String) {
        _ = TOMLCrashGuard(text)
    }
}
