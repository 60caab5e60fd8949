import Blitter
import Colour
import CZlib
import Foundation
import Geometry
import PNG
@testable import Photos
import Testing
import TestSupport

/// PNG through libspng (SPEC §11): PngSuite and Pillow's files (Formats/png, ATTRIBUTION.md) against
/// reference pixels made with Pillow (Formats/png/make-reference.py), the corrupt files refused with
/// their reasons, the bounds, orientation, metadata, and the snapshot encoder's files read back.
@Suite struct PNGDecoderTests {
    static let folder = TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats/png").path

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    struct Reference: CustomTestStringConvertible, Sendable {
        let file: String, size: ImageSize, hash: UInt64
        var testDescription: String { file }
    }

    static let references: [Reference] = {
        guard let text = try? String(contentsOfFile: path("reference.txt"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            let size = fields[1].split(separator: "x").compactMap { Int($0) }
            guard fields.count == 3, size.count == 2, let hash = UInt64(fields[2], radix: 16) else { return nil }
            return Reference(file: String(fields[0]), size: ImageSize(width: size[0], height: size[1]), hash: hash)
        }
    }()

    /// FNV-1a 64 of the pixels as little-endian 0x00RRGGBB words, row after row (as the script).
    static func hash(_ bitmap: Bitmap) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                for shift in stride(from: 0, to: 32, by: 8) { h = (h ^ UInt64(p >> UInt32(shift) & 0xFF)) &* 0x100_0000_01b3 }
            }
        }
        return h
    }

    static func decode(_ bytes: [UInt8], to target: ImageSize? = nil, maxMegapixels: Double = 100) throws -> DecodedImage {
        let decoder = PNGDecoder(options: DecodeOptions(maxMegapixels: maxMegapixels))
        return try decoder.decode(bytes: bytes, path: "test.png", to: target ?? decoder.readHeader(bytes: bytes, path: "test.png").size)
    }

    static func reason(_ bytes: [UInt8], maxMegapixels: Double = 100) -> PhotoError.Reason? {
        do {
            _ = try decode(bytes, to: ImageSize(width: 16, height: 16), maxMegapixels: maxMegapixels)
            return nil
        } catch let error as PhotoError {
            return error.reason
        } catch {
            Issue.record("not a PhotoError: \(error)")
            return nil
        }
    }

    // MARK: Every valid PngSuite file, and Pillow's

    @Test func everyValidFileHasAReference() {
        #expect(Self.references.count == 164)  // 175 PngSuite files, 14 of them corrupt; 3 of Pillow's
    }

    /// Every bit depth, palette, grey, Adam7, 16-bit, tRNS and alpha (over black): the same pixels
    /// as Pillow's.
    @Test(arguments: references)
    func decodesAsPillowDoes(_ reference: Reference) throws {
        let image = try Self.decode(Self.bytes(reference.file))
        #expect(image.header.format == "PNG")
        #expect(image.header.storedSize == reference.size)
        #expect(image.bitmap.size == Size(width: reference.size.width, height: reference.size.height))
        #expect(Self.hash(image.bitmap) == reference.hash)
        #expect(image.bitmap.pixels.allSatisfy { $0 >> 24 == 0 })  // XRGB8888, zero X byte
    }

    /// Adam7 gives the same picture as the plain file it was made from.
    @Test(arguments: ["0g01", "0g02", "0g04", "0g08", "0g16", "2c08", "2c16", "3p01", "3p02", "3p04", "3p08",
                      "4a08", "4a16", "6a08", "6a16"])
    func interlacedEqualsNonInterlaced(_ kind: String) throws {
        let plain = try Self.decode(Self.bytes("pngsuite/ps_basn\(kind).png"))
        let interlaced = try Self.decode(Self.bytes("pngsuite/ps_basi\(kind).png"))
        #expect(plain.bitmap.pixels == interlaced.bitmap.pixels)
        #expect(plain.header.workingBytes < interlaced.header.workingBytes)
    }

    @Test func alphaAndTransparencyAreComposedOverBlack() throws {
        // tbrn2c08: 8-bit RGB with a tRNS colour key; its border is the key colour, so black.
        let keyed = try Self.decode(Self.bytes("pngsuite/ps_tbrn2c08.png"))
        #expect(keyed.bitmap[0, 0] == 0)
        // tbbn2c16: the same with a 16-bit key.
        let keyed16 = try Self.decode(Self.bytes("pngsuite/ps_tbbn2c16.png"))
        #expect(keyed16.bitmap[0, 0] == 0)
        // basn6a08: the alpha ramp runs along x; the first column is fully transparent.
        let ramp = try Self.decode(Self.bytes("pngsuite/ps_basn6a08.png"))
        #expect((0..<32).allSatisfy { ramp.bitmap[0, $0] == 0 })
        #expect(ramp.bitmap.pixels.contains { $0 != 0 })
    }

    // MARK: Refused files

    /// The corrupt PngSuite files, each with the reason a user reads.
    @Test(arguments: [
        ("ps_xs1n0g01.png", "unknown_format"), ("ps_xs2n0g01.png", "unknown_format"),
        ("ps_xs4n0g01.png", "unknown_format"), ("ps_xs7n0g01.png", "unknown_format"),
        ("ps_xcrn0g04.png", "unknown_format"), ("ps_xlfn0g04.png", "unknown_format"),
        ("ps_xc1n0g08.png", "corrupt"), ("ps_xc9n2c08.png", "corrupt"),
        ("ps_xd0n2c08.png", "corrupt"), ("ps_xd3n2c08.png", "corrupt"), ("ps_xd9n2c08.png", "corrupt"),
        ("ps_xdtn0g01.png", "no_image_data"), ("ps_xcsn0g01.png", "corrupt"), ("ps_xhdn0g08.png", "corrupt"),
    ])
    func corruptFilesAreRefused(_ file: String, _ label: String) throws {
        let bytes = try Self.bytes("pngsuite/" + file)
        let reason = try #require(Self.reason(bytes))
        #expect(reason.label == label, "\(reason)")
        // Through the library's one door too, with the file named.
        do {
            _ = try PhotoDecoder().decode(path: Self.path("pngsuite/" + file), to: ImageSize(width: 16, height: 16))
            Issue.record("\(file) decoded")
        } catch let error as PhotoError {
            #expect(error.reason == reason)
            #expect(error.description.contains(file))
        }
    }

    @Test func corruptReasonsCarryLibspngsMessage() throws {
        #expect(Self.reason(try Self.bytes("pngsuite/ps_xc1n0g08.png")) == .corrupt(format: "PNG", "invalid color type"))
        #expect(Self.reason(try Self.bytes("pngsuite/ps_xd3n2c08.png")) == .corrupt(format: "PNG", "invalid bit depth"))
        #expect(Self.reason(try Self.bytes("pngsuite/ps_xhdn0g08.png")) == .corrupt(format: "PNG", "invalid chunk checksum"))
        #expect(Self.reason(try Self.bytes("pngsuite/ps_xcsn0g01.png")) == .corrupt(format: "PNG", "invalid chunk checksum"))
    }

    @Test func truncatedFilesAreRefused() throws {
        let bytes = try Self.bytes("pngsuite/ps_basn2c08.png")
        #expect(Self.reason(Array(bytes.prefix(20))) == .truncatedHeader)
        #expect(Self.reason(Array(bytes.prefix(5))) == .truncatedHeader)
        let cut = try #require(Self.reason(Array(bytes.prefix(bytes.count - 40))))
        #expect(cut.label == "corrupt", "\(cut)")
    }

    /// IHDR says 65535x65535 in 100 bytes: refused from the header, before libspng allocates.
    @Test func aDecompressionBombIsRefusedFromItsHeader() throws {
        var bomb = Self.png(width: 65535, height: 65535, chunks: [("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])])
        while bomb.count < 100 { bomb.insert(contentsOf: Self.chunk("tEXt", Array("a\0b".utf8)), at: 33) }
        let tooLarge = PhotoError.Reason.tooLarge(width: 65535, height: 65535, maxMegapixels: 100)
        #expect(Self.reason(bomb) == tooLarge)
        let folder = try TemporaryDirectory("png-bomb")
        defer { folder.remove() }
        try Data(bomb).write(to: URL(fileURLWithPath: folder.file("bomb.png")))
        #expect(throws: PhotoError(path: folder.file("bomb.png"), reason: tooLarge)) {
            try PhotoDecoder().info(path: folder.file("bomb.png"))
        }
        // The limit is the only thing that refuses it, and it is in megapixels.
        #expect(Self.reason(try Self.bytes("pngsuite/ps_basn2c08.png"), maxMegapixels: 0.001)
            == .tooLarge(width: 32, height: 32, maxMegapixels: 0.001))
    }

    /// libspng's chunk limits bound the ancillary chunks it keeps, not the image data: a file
    /// far larger than them decodes.
    @Test func aFileLargerThanTheChunkLimitsDecodes() throws {
        var rng = SplitMix64(seed: 23)
        let noise = TestImages.random(width: 2048, height: 1400, using: &rng)
        let file = try PNGEncoder.encode(noise)
        #expect(file.count > 100 * SpngReader.chunkLimit)
        let image = try Self.decode(file, to: ImageSize(width: 512, height: 350))
        #expect(image.scale == ScalingFactor(num: 1, denom: 4))
    }

    // MARK: A bad part loses only itself

    /// A valid 30 KB ICC profile in a PNG smaller than it: libspng's chunk limit, set to the file's
    /// size, applied to the inflated profile and skipped the photo. Vitrine inflates iCCP itself,
    /// within the ICC bound, and libspng never sees it: the photo shows converted.
    @Test func aProfileLargerThanTheFileIsUsed() throws {
        let profile = try Self.paddedDisplayP3(to: 30_400)
        let file = Self.inserting(Self.chunk("iCCP", Self.iccp(profile)), before: "IDAT", in: try Self.bytes("pngsuite/ps_basn2c08.png"))
        #expect(file.count < profile.count)
        let image = try Self.decode(file)
        #expect(image.colour == .icc(profile))
        #expect(image.colourWarning == nil)
        let folder = try TemporaryDirectory("png-icc")
        defer { folder.remove() }
        try Data(file).write(to: URL(fileURLWithPath: folder.file("p3.png")))
        let decoder = try PhotoDecoder()
        let shown = try decoder.decode(path: folder.file("p3.png"), to: ImageSize(width: 32, height: 32)).image
        #expect(shown.colourWarning == nil)
        #expect(decoder.colourStatistics.converted == 1)
    }

    /// Chunks libspng would inflate or keep, each past one of its limits (its 1,000 chunks, its
    /// cache, its inflated size), or broken: the photo shows with the same pixels as without them,
    /// and only a profile that cannot be used is said (naming the chunk and the bound).
    @Test func aBadMetadataChunkLosesOnlyItself() throws {
        let plain = try Self.bytes("pngsuite/ps_basn2c08.png")
        let expected = Self.hash(try Self.decode(plain).bitmap)
        let bomb = Self.deflated([UInt8](repeating: 0, count: 40 << 20))
        let manyTexts = (0..<100_000).flatMap { Self.chunk("tEXt", Array("k\0\($0)".utf8)) }
        let cases: [(String, [UInt8])] = [
            ("100,000 tEXt", manyTexts),
            ("a zTXt bomb", Self.chunk("zTXt", Array("Comment".utf8) + [0, 0] + bomb)),
            ("a compressed XMP bomb", Self.chunk("iTXt", PNGLayout.xmpKeyword + [0, 1, 0, 0, 0] + bomb)),
            ("two eXIf", Self.chunk("eXIf", Self.tiffOrientation(1)) + Self.chunk("eXIf", Self.tiffOrientation(1))),
            ("an eXIf that is no TIFF", Self.chunk("eXIf", Array("not TIFF at all".utf8))),
            ("a tEXt with a bad CRC", Array(Self.chunk("tEXt", Array("k\0v".utf8)).dropLast()) + [0]),
        ]
        for (name, chunks) in cases {
            let image = try Self.decode(Self.inserting(chunks, before: "IDAT", in: plain))
            #expect(Self.hash(image.bitmap) == expected, "\(name)")
            #expect(image.warning == nil && image.colourWarning == nil, "\(name)")
        }
        let iccBomb = try Self.decode(Self.inserting(Self.chunk("iCCP", Array("test".utf8) + [0, 0] + bomb), before: "IDAT", in: plain))
        #expect(Self.hash(iccBomb.bitmap) == expected)
        #expect(iccBomb.colour == nil)
        let warning = try #require(iccBomb.colourWarning)
        #expect(warning.contains("iCCP") && warning.contains("4 MB"), "\(warning)")
        var badCRC = Self.chunk("iCCP", Self.iccp(try Self.paddedDisplayP3(to: 600)))
        badCRC[badCRC.count - 1] ^= 1
        let unchecked = try Self.decode(Self.inserting(badCRC, before: "IDAT", in: plain))
        #expect(unchecked.colour == nil && unchecked.colourWarning?.contains("CRC") == true)
    }

    /// One bound per kind of block (`MetadataBounds`), checked on the declared size: an eXIf over
    /// 64 KB is not read (not for its orientation either), an XMP packet over 1 MB neither; each
    /// is a line for the caption's warning.
    @Test func metadataOverItsBoundIsNotRead() throws {
        let plain = try Self.bytes("pngsuite/ps_basn2c08.png")
        let large = Self.tiffOrientation(6) + [UInt8](repeating: 0, count: MetadataBounds.exifBytes)
        let turned = Self.inserting(Self.chunk("eXIf", large), before: "IDAT", in: plain)
        #expect(try PNGDecoder().readHeader(bytes: turned, path: "t.png").orientation == .normal)
        var metadata = PNGDecoder.metadata(in: turned)
        #expect(metadata.exif.isEmpty)
        #expect(metadata.unread.count == 1 && metadata.unread[0].contains("eXIf") && metadata.unread[0].contains("64 KB"))
        let fits = Self.inserting(Self.chunk("eXIf", Array(large.prefix(MetadataBounds.exifBytes))), before: "IDAT", in: plain)
        #expect(try PNGDecoder().readHeader(bytes: fits, path: "t.png").orientation == .rotate90)
        let packet = Array("<x:xmpmeta/>".utf8) + [UInt8](repeating: 0x20, count: MetadataBounds.xmpBytes)
        metadata = PNGDecoder.metadata(in: Self.inserting(Self.chunk("iTXt", PNGLayout.xmpKeyword + [0, 0, 0, 0, 0] + packet),
                                                          before: "IEND", in: plain))
        #expect(metadata.xmp.isEmpty)
        #expect(metadata.unread.count == 1 && metadata.unread[0].contains("XMP") && metadata.unread[0].contains("1 MB"))
    }

    /// A file that ends after its last row (no IEND, or cut inside the last IDAT's CRC) shows, and
    /// says it is truncated; one cut inside its image data is refused.
    @Test func aFileCutAfterItsLastRowShowsWithAWarning() throws {
        let plain = try Self.bytes("pngsuite/ps_basn2c08.png")
        #expect(try Self.decode(plain).warning == nil)
        for cut in [12, 14, 16] {
            let image = try Self.decode(Array(plain.dropLast(cut)))
            #expect(image.warning?.contains("truncated") == true, "\(cut)")
        }
        #expect(Self.reason(Array(plain.prefix(plain.count / 2)))?.label == "corrupt")
    }

    /// A row as wide as 100,000,000 pixels (under 100 MP) holds gigabytes of libspng's scanlines,
    /// more than its pixels: refused from its header, past both cache.megabytes and 8 bytes a
    /// pixel of photos.max_megapixels, by the scan and the decode alike, with one reason.
    @Test func aDecodeLargerThanTheCacheIsRefusedFromItsHeader() throws {
        let strip = Self.png(width: 100_000_000, height: 1, chunks: [("IDAT", Self.deflated([0]))])
        let folder = try TemporaryDirectory("png-strip")
        defer { folder.remove() }
        try Data(strip).write(to: URL(fileURLWithPath: folder.file("strip.png")))
        let options = DecodeOptions(cacheMegabytes: 64)
        for attempt in ["info", "decode"] {
            #expect {
                if attempt == "info" {
                    _ = try PhotoDecoder(options: options).info(path: folder.file("strip.png"))
                } else {
                    _ = try PhotoDecoder(options: options).decode(path: folder.file("strip.png"), to: ImageSize(width: 640, height: 1))
                }
            } throws: { error in
                guard let error = error as? PhotoError, case let .tooLargeForMemory(needs, budget) = error.reason else { return false }
                return needs > 3_000_000_000 && budget == 800_000_000 && "\(error.reason)".contains("762 MB a decode may")
                    && error.reason.label == "too_large"
            }
        }
        // Without a budget (tools), the header passes: the megapixels alone do not refuse it.
        #expect(try PhotoDecoder().info(path: folder.file("strip.png")).size == ImageSize(width: 100_000_000, height: 1))
    }

    @Test func zeroSizesAndMissingImageDataAreRefused() {
        #expect(Self.reason(Self.png(width: 0, height: 5, chunks: [])) == .zeroSize(width: 0, height: 5))
        #expect(Self.reason(Self.png(width: 4, height: 4, chunks: [])) == .noImageData)
    }

    // MARK: Content, not name

    @Test func aPNGNamedJPGIsAPNG() throws {
        let folder = try TemporaryDirectory("png-named-jpg")
        defer { folder.remove() }
        try Data(try Self.bytes("pngsuite/ps_basn2c08.png")).write(to: URL(fileURLWithPath: folder.file("photo.jpg")))
        let info = try PhotoDecoder().info(path: folder.file("photo.jpg"))
        #expect(info.format == "PNG")
        let image = try PhotoDecoder().decode(path: folder.file("photo.jpg"), to: ImageSize(width: 32, height: 32)).image
        #expect(image.bitmap.pixels == (try Self.decode(Self.bytes("pngsuite/ps_basn2c08.png"))).bitmap.pixels)
        #expect(PhotoDecoder.isCandidateName("A.PNG"))
    }

    // MARK: Scaling

    /// A target at most half the image is decoded row by row into a box reduction: the same as
    /// averaging the full decode's boxes; the decode never held the full image.
    @Test func reducedDecodeAveragesBoxes() throws {
        let bytes = try Self.bytes("pngsuite/ps_basn6a16.png")
        let full = try Self.decode(bytes).bitmap
        let image = try Self.decode(bytes, to: ImageSize(width: 8, height: 8))
        #expect(image.scale == ScalingFactor(num: 1, denom: 4))
        #expect(image.decodedSize == ImageSize(width: 8, height: 8))
        for (x, y) in [(0, 0), (3, 5), (7, 7)] {
            var sums = [0, 0, 0]
            for dy in 0..<4 {
                for dx in 0..<4 {
                    let p = full[4 * x + dx, 4 * y + dy]
                    sums[0] += Int(p >> 16 & 0xFF); sums[1] += Int(p >> 8 & 0xFF); sums[2] += Int(p & 0xFF)
                }
            }
            let p = image.bitmap[x, y]
            // Averages of the premultiplied 8-bit values (the full decode rounded them once more).
            #expect(abs(Int(p >> 16 & 0xFF) - sums[0] / 16) <= 1)
            #expect(abs(Int(p >> 8 & 0xFF) - sums[1] / 16) <= 1)
            #expect(abs(Int(p & 0xFF) - sums[2] / 16) <= 1)
        }
        // Not a whole factor: the reduction, then the resampler, to the exact size.
        let odd = try Self.decode(bytes, to: ImageSize(width: 13, height: 11))
        #expect(odd.bitmap.size == Size(width: 13, height: 11))
        #expect(odd.scale == ScalingFactor(num: 1, denom: 2))
    }

    /// What a decode holds besides its output: a few rows for a plain file, the whole RGBA image
    /// for an interlaced one. For a 4000x3000 photo: about a quarter of a megabyte against 48 MB.
    @Test func workingMemoryIsAFewRowsUnlessInterlaced() {
        let plain = SpngReader.workingBytes(width: 4000, height: 3000, interlaced: false)
        let interlaced = SpngReader.workingBytes(width: 4000, height: 3000, interlaced: true)
        #expect(plain < 400_000)
        #expect(interlaced == plain + 4000 * 3000 * 4)
        #expect(SpngReader.workingBytes(width: Int(Int32.max), height: Int(Int32.max), interlaced: true) > 0)
    }

    // MARK: Orientation and metadata

    /// eXIf before IDAT turns the picture (Orientation 6: 90 degrees clockwise to display).
    @Test func exifOrientationBeforeTheImageDataTurnsIt() throws {
        let plain = try Self.bytes("pngsuite/ps_basn2c08.png")
        let turned = Self.inserting(Self.chunk("eXIf", Self.tiffOrientation(6)), before: "IDAT", in: plain)
        let decoder = PNGDecoder()
        let header = try decoder.readHeader(bytes: turned, path: "turned.png")
        #expect(header.orientation == .rotate90)
        let upright = try Self.decode(plain).bitmap
        let image = try decoder.decode(bytes: turned, path: "turned.png", to: ImageSize(width: 32, height: 32)).bitmap
        #expect(image.pixels == Orientation.rotate90.apply(to: upright).pixels)
        #expect(image.pixels != upright.pixels)
        #expect(PNGDecoder.metadata(in: turned).exif.count == 1)
    }

    /// After IDAT (where ImageMagick writes it, before a tEXt and IEND) it turns the picture too,
    /// as Pillow reads it: found in the file's last 64 kB, without reading the image data; and
    /// it is read for captions wherever it is.
    @Test func exifAfterTheImageDataTurnsItToo() throws {
        let bytes = try Self.bytes("pil_exif.png")  // Orientation 1, after IDAT
        #expect(try PNGDecoder().readHeader(bytes: bytes, path: "pil_exif.png").orientation == .normal)
        let metadata = PNGDecoder.metadata(in: bytes)
        #expect(metadata.exif.count == 1)
        #expect(metadata.exif.first.map { $0.starts(with: Array("MM\0*".utf8)) || $0.starts(with: Array("II*\0".utf8)) } == true)

        let plain = try Self.bytes("pngsuite/ps_basn2c08.png")
        let late = Self.inserting(Self.chunk("tEXt", Array("Comment\0made by a test".utf8)), before: "IEND",
                                  in: Self.inserting(Self.chunk("eXIf", Self.tiffOrientation(6)), before: "IEND", in: plain))
        let decoder = PNGDecoder()
        #expect(try decoder.readHeader(bytes: late, path: "late.png").orientation == .rotate90)
        #expect(PNGDecoder.metadata(in: late).exif.count == 1)
        let image = try decoder.decode(bytes: late, path: "late.png", to: ImageSize(width: 32, height: 32)).bitmap
        #expect(image.pixels == Orientation.rotate90.apply(to: try Self.decode(plain).bitmap).pixels)

        // From a file whose start (the first 64 kB the scan reads) ends long before the eXIf.
        let folder = try TemporaryDirectory("png-late-exif")
        defer { folder.remove() }
        let padded = Self.inserting(Self.chunk("prVt", [UInt8](repeating: 7, count: 200_000)), before: "IDAT", in: late)
        try Data(padded).write(to: URL(fileURLWithPath: folder.file("late.png")))
        #expect(try PhotoDecoder().info(path: folder.file("late.png")).orientation == .rotate90)
        // Further than 64 kB from the end: not looked for (the tail read is bounded).
        let far = Self.inserting(Self.chunk("prVt", [UInt8](repeating: 7, count: 70_000)), before: "tEXt", in: late)
        #expect(try decoder.readHeader(bytes: far, path: "far.png").orientation == .normal)
        // "eXIf" inside data that does not lead to IEND is not taken for a chunk.
        var fake = Self.chunk("eXIf", Self.tiffOrientation(6))
        fake.removeLast(4)  // no CRC: the chain from it does not end at IEND
        let inside = Self.inserting(Self.chunk("prVt", fake + [1, 2, 3]), before: "IEND", in: plain)
        #expect(try decoder.readHeader(bytes: inside, path: "inside.png").orientation == .normal)
    }

    /// XMP's tiff:Orientation is not applied (SPEC §4 names eXIf); the packet is read for captions.
    @Test(arguments: ["pil_xmp_tags_orientation.png", "pil_xmp_tags_orientation_exiftool.png"])
    func xmpIsReadButItsOrientationIsNotApplied(_ file: String) throws {
        let bytes = try Self.bytes(file)
        #expect(try PNGDecoder().readHeader(bytes: bytes, path: file).orientation == .normal)
        let xmp = try #require(PNGDecoder.metadata(in: bytes).xmp.first)
        #expect(String(decoding: xmp, as: UTF8.self).contains("tiff:Orientation"))
    }

    @Test func anICCProfileIsReported() throws {
        let image = try Self.decode(Self.bytes("pil_xmp_tags_orientation.png"), to: ImageSize(width: 32, height: 26))
        guard case let .icc(profile)? = image.colour else {
            Issue.record("no ICC profile: \(String(describing: image.colour))")
            return
        }
        #expect(profile.count > 128)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        #expect(try Self.decode(Self.bytes("pngsuite/ps_basn2c08.png")).colour == nil)
    }

    /// A caption and the date from a PNG: XMP dc:title in iTXt, DateTimeOriginal in eXIf after IDAT.
    @Test func captionAndDateAreReadFromAPNG() throws {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>\
            <rdf:li xml:lang="x-default">Harbour</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        var bytes = try Self.bytes("pngsuite/ps_basn2c08.png")
        bytes = Self.inserting(Self.chunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0".utf8) + Array(xmp.utf8)), before: "IDAT", in: bytes)
        bytes = Self.inserting(Self.chunk("eXIf", Self.tiffDateTimeOriginal("2021:06:05 10:11:12")), before: "IEND", in: bytes)
        let folder = try TemporaryDirectory("png-caption")
        defer { folder.remove() }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("harbour.png")))
        let reading = CaptionReader(includeDate: true, dateFormat: "%Y-%m-%d").read(photoPath: folder.file("harbour.png"))
        #expect(reading.caption?.title == "Harbour")
        #expect(reading.caption?.date == "2021-06-05")
        #expect(reading.warning == nil)
        // The decode workers read the same blocks from the bytes they decode.
        let decoded = try PhotoDecoder().decode(path: folder.file("harbour.png"), to: ImageSize(width: 32, height: 32), metadata: true)
        #expect(decoded.metadata?.xmp.count == 1)
        #expect(decoded.metadata?.exif.count == 1)
    }

    // MARK: The snapshot encoder's files

    /// What `simulate --snapshot` and `/screenshot` write reads back exactly, through this decoder
    /// and through the tests' own minimal one.
    @Test(arguments: [(1, 1), (37, 23), (640, 360)])
    func encodedPNGsReadBackExactly(_ size: (Int, Int)) throws {
        var rng = SplitMix64(seed: UInt64(size.0 * 7 + size.1))
        let bitmap = TestImages.random(width: size.0, height: size.1, using: &rng)
        let file = try PNGEncoder.encode(bitmap)
        let decoded = try Self.decode(file).bitmap
        let expected = bitmap.pixels.map { $0 & 0xFF_FFFF }
        #expect(decoded.pixels == expected)
        #expect(try PNGTestDecoder.decode(file).pixels.map { $0 & 0xFF_FFFF } == expected)
    }

    // MARK: Making PNGs

    static func tiffOrientation(_ value: UInt16) -> [UInt8] {
        // Big-endian TIFF, IFD0 at 8 with one SHORT entry.
        Array("MM\0*".utf8) + [0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(value >> 8), UInt8(value & 0xFF), 0, 0, 0, 0, 0, 0]
    }

    static func tiffDateTimeOriginal(_ date: String) -> [UInt8] {
        // IFD0 (at 8): one LONG entry, the Exif IFD at 26; Exif IFD: one ASCII entry, its 20 bytes at 44.
        var tiff = Array("MM\0*".utf8) + [0, 0, 0, 8]
        tiff += [0, 1, 0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]
        tiff += [0, 1, 0x90, 0x03, 0, 2, 0, 0, 0, 20, 0, 0, 0, 44, 0, 0, 0, 0]
        return tiff + Array(date.utf8) + [0]
    }

    /// `bytes` compressed by zlib.
    static func deflated(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        #expect(compress2(&out, &length, bytes, uLong(bytes.count), 9) == Z_OK)
        return Array(out.prefix(Int(length)))
    }

    /// An iCCP chunk's data: a name, its NUL, compression method 0, the profile deflated.
    static func iccp(_ profile: [UInt8]) -> [UInt8] { Array("test".utf8) + [0, 0] + deflated(profile) }

    /// The Display P3 profile of the JPEG tests, its declared size grown to `size` with zeros after
    /// its tags (lcms2 reads it as the same profile).
    static func paddedDisplayP3(to size: Int) throws -> [UInt8] {
        let path = TestPaths.root.appendingPathComponent("Tests/PhotosTests/JPEGs/colour/display_p3.icc").path
        var profile = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        profile += [UInt8](repeating: 0, count: max(0, size - profile.count))
        profile.replaceSubrange(0..<4, with: [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        return profile
    }

    static func png(width: UInt32, height: UInt32, chunks: [(String, [UInt8])]) -> [UInt8] {
        var header: [UInt8] = []
        for value in [width, height] { header += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        header += [8, 2, 0, 0, 0]
        return PNGLayout.signature + chunk("IHDR", header) + chunks.flatMap { chunk($0.0, $0.1) } + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        let body = Array(type.utf8) + data
        let crc = crc32(body)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// `chunk` put in before the first chunk of type `type`.
    static func inserting(_ chunk: [UInt8], before type: String, in file: [UInt8]) -> [UInt8] {
        var offset = 8
        while offset + 8 <= file.count {
            if file[offset + 4..<offset + 8].elementsEqual(type.utf8) { break }
            offset += 12 + PNGLayout.bigEndian(file[...], at: offset)
        }
        var out = file
        out.insert(contentsOf: chunk, at: min(offset, file.count))
        return out
    }
}
