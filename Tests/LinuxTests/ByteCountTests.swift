import Testing
@testable import Linux

@Suite struct ByteCountTests {
    /// Every size says something: bytes under a kilobyte, kilobytes under a megabyte (the password
    /// file's limit was "4096 bytes (0.0 MB)"), one decimal unless it is 0, and the next unit
    /// where a figure would round to 1024.
    @Test func eachSizeInTheUnitThatSaysSomething() {
        let cases: [(Int, String)] = [
            (0, "0 bytes"), (1, "1 byte"), (1023, "1023 bytes"), (1024, "1 KB"), (4096, "4 KB"), (5000, "4.9 KB"),
            (30_413, "29.7 KB"), (1_048_575, "1 MB"), (1_048_576, "1 MB"), (1_572_864, "1.5 MB"),
            (4 << 20, "4 MB"), (3_435_973_837, "3.2 GB"), (Int.max, "8 EB"), (-2048, "-2 KB"),
        ]
        for (bytes, text) in cases {
            #expect(ByteCount(bytes).description == text, "\(bytes)")
        }
    }

    @Test func aFileOverAReadersLimitGivesBothSizesExactlyAndReadably() {
        #expect(SystemError("read", reason: .tooLarge(size: 5000, limit: 4096)).description
            == "read: file too large: 5000 bytes (4.9 KB), the limit is 4096 bytes (4 KB)")
        #expect(SystemError("read", reason: .tooLarge(size: 600, limit: 512)).description
            == "read: file too large: 600 bytes, the limit is 512 bytes")
    }
}
