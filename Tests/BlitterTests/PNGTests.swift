import Testing
@testable import PNG
import Blitter
import Geometry
import Linux
import SystemPackage
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

@Suite struct PNGTests {
    /// Noise, smooth gradients and flat areas, so different rows pick different filters.
    static func sample(width: Int, height: Int, stride: Int? = nil, seed: UInt64) -> Bitmap {
        var rng = SplitMix64(seed: seed)
        var bitmap = TestImages.random(width: width, height: height, stride: stride, using: &rng)
        for y in 0..<height where y % 3 != 0 {
            for x in 0..<width {
                bitmap[x, y] = y % 3 == 1 ? Pixel.rgb(UInt8(truncatingIfNeeded: x * 5), UInt8(truncatingIfNeeded: y * 7), 200)
                                          : Pixel.rgb(UInt8(truncatingIfNeeded: x + y), 40, UInt8(truncatingIfNeeded: x * y))
            }
        }
        return bitmap
    }

    static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] & 0xFF_FFFF != b[x, y] & 0xFF_FFFF { return false }
        }
        return true
    }

    @Test(arguments: [(1, 1), (3, 2), (1, 9), (17, 5), (64, 33), (301, 7)])
    func encodeDecodeRoundTripsPixels(size: (Int, Int)) throws {
        let bitmap = Self.sample(width: size.0, height: size.1, seed: UInt64(size.0 * 1000 + size.1))
        let decoded = try PNGTestDecoder.decode(PNGEncoder.encode(bitmap))
        #expect(Self.samePixels(decoded, bitmap))
    }

    @Test func rowPaddingAndTheUnusedHighByteAreNotEncoded() throws {
        var bitmap = Self.sample(width: 9, height: 4, stride: 13, seed: 10)
        for i in bitmap.pixels.indices { bitmap.pixels[i] |= 0xFF00_0000 }
        let decoded = try PNGTestDecoder.decode(PNGEncoder.encode(bitmap))
        #expect(Self.samePixels(decoded, bitmap))
    }

    @Test(arguments: 0...4)
    func everyFilterTypeRoundTrips(filter: Int) throws {
        // The adaptive choice decides which filters a file uses; check each one's encoding directly.
        let bitmap = Self.sample(width: 11, height: 6, seed: 11)
        let file = try PNGEncoder.encode(bitmap, filter: UInt8(filter))
        #expect(Self.samePixels(try PNGTestDecoder.decode(file), bitmap))
    }

    @Test func adaptiveFilteringMixesFilterTypes() throws {
        let bitmap = Self.sample(width: 40, height: 12, seed: 13)
        let types = Set(try PNGTestDecoder.filterTypes(PNGEncoder.encode(bitmap)))
        #expect(types.count > 1)
    }

    @Test(arguments: 0...4)
    func aForcedFilterIsUsedOnEveryRow(filter: Int) throws {
        let file = try PNGEncoder.encode(Self.sample(width: 11, height: 6, seed: 11), filter: UInt8(filter))
        #expect(try PNGTestDecoder.filterTypes(file) == [UInt8](repeating: UInt8(filter), count: 6))
    }

    @Test func headerDescribesEightBitRGB() throws {
        let file = try PNGEncoder.encode(Bitmap(width: 300, height: 2, color: Pixel.white))
        let chunks = try PNGTestDecoder.chunks(file)
        #expect(chunks.map(\.type).first == "IHDR")
        #expect(chunks.first?.data == [0, 0, 1, 44, 0, 0, 0, 2, 8, 2, 0, 0, 0])
        #expect(chunks.map(\.type).last == "IEND")
    }

    @Test func emptyBitmapIsAnError() {
        #expect(throws: PNGError.emptyImage(width: 0, height: 5)) { try PNGEncoder.encode(Bitmap(width: 0, height: 5)) }
    }

    @Test func writeReplacesTheFileAtomically() throws {
        let directory = "/tmp/vitrine-png-test-\(getpid())"
        mkdir(directory, 0o755)
        defer { rmdir(directory) }
        let path = directory + "/shot.png"
        defer { unlink(path) }
        let bitmap = Self.sample(width: 20, height: 10, seed: 12)
        try PNGEncoder.write(Bitmap(width: 2, height: 2, color: Pixel.white), to: path)
        try PNGEncoder.write(bitmap, to: path)
        #expect(Self.samePixels(try PNGTestDecoder.decode(Self.read(path)), bitmap))
        #expect(Self.entries(of: directory) == ["shot.png"])
    }

    @Test func writeIntoAMissingDirectoryNamesThePathAndErrno() {
        let path = "/tmp/vitrine-no-such-directory-\(getpid())/shot.png"
        do {
            try PNGEncoder.write(Bitmap(width: 2, height: 2), to: path)
            Issue.record("writing to \(path) succeeded")
        } catch let error as SystemError {
            #expect(error == SystemError("open", path: path, errno: .noSuchFileOrDirectory))
            #expect(error.description.contains(path))
            #expect(error.description.contains("No such file"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    static func read(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
