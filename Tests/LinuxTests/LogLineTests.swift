import Glibc
import Linux
import Testing

/// Log lines that may not be written, and names that must not forge one (SPEC §4).
@Suite struct LogLineTests {
    @Test func aLineToAClosedOrFullDescriptorIsDropped() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[1])
        #expect(LogLine.write("to a closed descriptor\n", to: ends[1]) == false)
        close(ends[0])
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        #expect(LogLine.write("to a full disk\n", to: full) == false)
    }

    /// A non-blocking pipe nobody reads fills up: the line is dropped at once, never waited for.
    /// (A pipe whose reader has gone gives EPIPE; SIGPIPE is what the process's default handler does.)
    @Test func aFullNonBlockingPipeDropsTheLineWithoutWaiting() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let line = String(repeating: "x", count: 4095) + "\n"
        var written = 0
        while LogLine.write(line, to: ends[1]) { written += 1 }
        #expect(written > 0)
        #expect(LogLine.write("one more\n", to: ends[1]) == false)
    }

    @Test func controlCharactersAndInvalidBytesAreEscaped() {
        #expect(LogLine.escaped("a\nb\u{1B}[31m\u{7F}\u{85}é.jpg") == "a\\x0Ab\\x1B[31m\\x7F\\x85é.jpg")
        let invalid = FileName.string([0x61, 0xFF, 0x0A, 0xC3])
        #expect(LogLine.escaped(invalid) == "a\\xFF\\x0A\\xC3")
        // Escaping twice changes nothing more.
        #expect(LogLine.escaped(LogLine.escaped("a\nb")) == "a\\x0Ab")
    }

    /// Names are bytes: every byte string goes to a String and back unchanged, valid UTF-8 as itself.
    @Test(arguments: [[0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE], [0xEE, 0xBE, 0x80], [0xC3, 0xA9, 0x2E],
                      [0xF0, 0x9F, 0x98, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func fileNamesGoThereAndBackUnchanged(bytes: [UInt8]) {
        #expect(FileName.bytes(of: FileName.string(bytes)) == bytes)
    }

    @Test func validNamesAreTheirOwnStrings() {
        #expect(FileName.string(Array("Café 😀.jpg".utf8)) == "Café 😀.jpg")
    }
}
