import Blitter
import Foundation
import Linux
@testable import Photos
import Testing
import TestSupport

/// HEIF/HEIC and AVIF through libheif, from real files made by others (Formats/ATTRIBUTION.md),
/// compared with libheif's own heif-convert (Formats/make-references.py).
@Suite struct HEIFDecoderTests {
    static let formats = TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats").path
    static func path(_ relative: String) -> String { (formats as NSString).appendingPathComponent(relative) }
    static func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative)))) }
    static func reference(_ name: String) throws -> Bitmap { try PNGTestDecoder.decode(bytes("references/" + name)) }

    static func decode(_ relative: String, to size: ImageSize, options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try PhotoDecoder(options: options).decode(path: path(relative), to: size).image
    }

    // MARK: Format by content

    @Test func brandsTellHEIFFromAVIF() {
        func ftyp(_ major: String, _ compatible: [String]) -> ArraySlice<UInt8> {
            let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
            let size = 8 + brands.count
            return ([0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("ftyp".utf8) + brands)[...]
        }
        #expect(HEIFFileType.family(of: ftyp("heic", ["mif1", "heic"])) == .heif)
        #expect(HEIFFileType.family(of: ftyp("mif1", ["heic"])) == .heif)
        #expect(HEIFFileType.family(of: ftyp("mif1", ["mif1", "miaf", "avif"])) == .avif)
        #expect(HEIFFileType.family(of: ftyp("avis", ["msf1", "miaf"])) == .avif)
        #expect(HEIFFileType.family(of: ftyp("msf1", ["hevc", "iso8"])) == .heif)
        #expect(HEIFFileType.family(of: ftyp("mif1", [])) == .heif)  // codec-neutral only: HEIF
        #expect(HEIFFileType.family(of: ftyp("isom", ["iso2", "mp41"])) == nil)  // an MP4 video
        #expect(HEIFFileType.family(of: ftyp("qt  ", [])) == nil)
        #expect(HEIFFileType.family(of: Array("not an image at all".utf8)[...]) == nil)
    }

    @Test func contentDecidesNotTheName() throws {
        let folder = try TestPaths.temporaryDirectory("heif-names")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let heicAsJPEG = folder + "/photo.jpg", jpegAsHEIC = folder + "/photo.heic", avifAsHEIC = folder + "/fox.heic"
        try FileManager.default.copyItem(atPath: Self.path("heic/phf_arrow.heic"), toPath: heicAsJPEG)
        try FileManager.default.copyItem(atPath: TestJPEGs.path("variants/derived_17x9_crop_sunset.jpg"), toPath: jpegAsHEIC)
        try FileManager.default.copyItem(atPath: Self.path("avif/linku_fox.profile0.10bpc.yuv420.avif"), toPath: avifAsHEIC)
        let decoder = try PhotoDecoder()
        #expect(try decoder.info(path: heicAsJPEG).format == "HEIF")
        #expect(try decoder.info(path: jpegAsHEIC).format == "JPEG")
        #expect(try decoder.info(path: avifAsHEIC).format == "AVIF")
        #expect(PhotoDecoder.isCandidateName("IMG_0001.HEIC") && PhotoDecoder.isCandidateName("a.avif")
                && PhotoDecoder.isCandidateName("b.hif") && PhotoDecoder.isCandidateName("c.avifs"))
    }

    // MARK: Header

    /// libheif applies clap, irot and imir to the size it reports: the header is the displayed
    /// size, upright (`.normal`). The iPhone 8 Plus photo has irot 270 and EXIF orientation 6, which
    /// say the same thing: it is shown 3024x4032, not turned twice.
    @Test(arguments: [
        ("heic/phf_arrow.heic", "HEIF", 3024, 4032),
        ("heic/lhf_example.heic", "HEIF", 1280, 854),
        ("heic/phf_RGBA_10__29x100.heif", "HEIF", 29, 100),
        ("avif/linku_kimono.rotate90.avif", "AVIF", 722, 1024),
        ("avif/linku_kimono.mirror-vertical.rotate270.crop.avif", "AVIF", 385, 330),
        ("avif/lavif_abc_color_irot_alpha_irot.avif", "AVIF", 256, 512),
        ("avif/lavif_sofa_grid1x5_420.avif", "AVIF", 1024, 770),
        ("avif/linku_fox.profile2.12bpc.yuv422.avif", "AVIF", 1204, 800),
    ])
    func headerGivesTheDisplayedSize(_ file: String, _ format: String, _ width: Int, _ height: Int) throws {
        let header = try PhotoDecoder().info(path: Self.path(file))
        #expect(header.format == format)
        #expect(header.orientation == .normal)
        #expect(header.size == ImageSize(width: width, height: height))
        let image = try Self.decode(file, to: ImageSize(width: width, height: height))
        #expect(image.decodedSize == ImageSize(width: width, height: height))
    }

    /// The library scan reads every photo's header: the ftyp and meta boxes, in the file's first
    /// 64 kB, which PhotoDecoder read anyway; libheif 1.15 asks for the 48 tiles' data too, and is
    /// given zeros for it.
    @Test func aHeaderReadsOnlyTheBoxes() throws {
        let file = try PhotoFile(path: Self.path("heic/phf_arrow.heic"), options: DecodeOptions())
        defer { file.close() }
        let input = HEIFInput(file: file, start: try file.readPrefix(PhotoDecoder.headerPrefix))
        let header = try HEIFContainerDecoder(format: "HEIF", options: DecodeOptions()).header(input: input, path: file.path) { HEIFInput(file: file, start: input.start) }
        print("phf_arrow.heic (\(file.size) bytes): libheif asked for \(input.bytesRequested) bytes, \(input.bytesAsZeros) given as zeros, \(input.bytesReadFromFile) read past the first 64 kB")
        #expect(header.size == ImageSize(width: 3024, height: 4032))
        #expect(input.bytesReadFromFile == 0)
        #expect(input.bytesAsZeros > 700_000)
    }

    /// A full-size decode: libheif's planes and interleaved image, then the XRGB copy.
    @Test func workingMemoryIsTheFullSizeDecode() throws {
        let info = try PhotoDecoder().info(path: Self.path("heic/phf_arrow.heic"))
        let pixels = 3024 * 4032
        #expect(info.decoderBytes >= 7 * pixels)
        #expect(info.decoderBytes <= 12 * pixels)
        let tenBit = try PhotoDecoder().info(path: Self.path("avif/linku_fox.profile0.10bpc.yuv420.avif"))
        #expect(tenBit.decoderBytes > info.decoderBytes / pixels * 1204 * 800)
    }

    // MARK: Pixels against libheif's heif-convert

    @Test(arguments: [
        ("heic/phf_arrow.heic", "arrow-378x504.png"),
        ("heic/lhf_example.heic", "example-320x214.png"),
        ("heic/phf_RGBA_10__29x100.heif", "rgba10-29x100.png"),
        ("avif/linku_fox.profile0.10bpc.yuv420.avif", "fox10-301x200.png"),
        ("avif/linku_fox.profile2.12bpc.yuv422.avif", "fox12-301x200.png"),
        ("avif/linku_kimono.rotate90.avif", "kimono-rotate90-181x256.png"),
        ("avif/linku_kimono.mirror-vertical.rotate270.crop.avif", "kimono-crop-385x330.png"),
        ("avif/lavif_abc_color_irot_alpha_irot.avif", "abc-alpha-irot.png"),
        ("avif/lavif_color_grid_alpha_nogrid.avif", "grid-alpha-80x80.png"),
    ])
    func pixelsMatchLibheifsOwnDecode(_ file: String, _ referenceName: String) throws {
        let reference = try Self.reference(referenceName)
        let image = try Self.decode(file, to: ImageSize(width: reference.width, height: reference.height))
        #expect(image.bitmap.width == reference.width && image.bitmap.height == reference.height)
        let difference = meanDifference(image.bitmap, reference)
        #expect(difference < 2.5, "\(file): mean difference \(difference)")
        #expect(image.bitmap.pixels.allSatisfy { $0 >> 24 == 0 }, "X byte not zero")
    }

    /// Transparent pixels come out black; the 10-bit alpha's colours are multiplied by it.
    @Test func alphaIsComposedOverBlack() throws {
        let image = try Self.decode("avif/lavif_abc_color_irot_alpha_irot.avif", to: ImageSize(width: 256, height: 512))
        let black = image.bitmap.pixels.filter { $0 == 0 }.count
        #expect(black > image.bitmap.pixels.count / 50, "\(black) black pixels")
        let tenBit = try Self.decode("heic/phf_RGBA_10__29x100.heif", to: ImageSize(width: 29, height: 100))
        #expect(meanDifference(tenBit.bitmap, try Self.reference("rgba10-29x100.png")) < 2.0)
    }

    /// The 1x5 grid's rows either side of each tile seam, at full size, as heif-convert has them.
    @Test func gridTilesMeetWithoutSeams() throws {
        let image = try Self.decode("avif/lavif_sofa_grid1x5_420.avif", to: ImageSize(width: 1024, height: 770))
        let reference = try Self.reference("sofa-seams.png")
        var strips = Bitmap(width: 1024, height: reference.height)
        for (index, top) in [150, 304, 458, 612].enumerated() {
            for y in 0..<8 { for x in 0..<1024 { strips[x, 8 * index + y] = image.bitmap[x, top + y] } }
        }
        #expect(meanDifference(strips, reference) < 1.0)
    }

    /// The iPhone's 240x320 thumbnail item serves a grid cell: a thumbnail decode, not 12 MP.
    @Test func aSmallTargetUsesTheFilesThumbnail() throws {
        let clock = ContinuousClock()
        var small: DecodedImage?, large: DecodedImage?
        let smallTime = try clock.measure { small = try Self.decode("heic/phf_arrow.heic", to: ImageSize(width: 180, height: 240)) }
        let largeTime = try clock.measure { large = try Self.decode("heic/phf_arrow.heic", to: ImageSize(width: 378, height: 504)) }
        print("phf_arrow.heic: 180x240 from the thumbnail item in \(smallTime), 378x504 from the 12 MP grid in \(largeTime)")
        let thumbnail = try #require(small), full = try #require(large)
        #expect(thumbnail.decodedSize == ImageSize(width: 240, height: 320))
        #expect(thumbnail.scale != .one)
        #expect(full.decodedSize == ImageSize(width: 3024, height: 4032))
        #expect(meanDifference(thumbnail.bitmap, try Self.reference("arrow-180x240.png")) < 4.0)
    }

    // MARK: Metadata

    /// Exif and XMP items as exiftool writes them into a HEIC and an AVIF made for this test.
    @Test(arguments: ["heic/vitrine_caption.heic", "avif/vitrine_caption.avif"])
    func exifDateAndXMPTitleAreRead(_ file: String) throws {
        let metadata = try #require(PhotoDecoder.metadata(in: try Self.bytes(file)))
        #expect(metadata.exif.count == 1 && metadata.xmp.count == 1)
        let reader = CaptionReader(includeDate: true, dateFormat: "%Y-%m-%d")
        let caption = try #require(reader.read(photoPath: Self.path(file)).caption)
        #expect(caption.title == "Harbour at dawn")
        #expect(caption.date == "2024-05-17")
    }

    /// Real files' Exif items: the TIFF structure after the item's offset field.
    @Test func exifOfRealFilesIsReadWithItsOffset() throws {
        let arrow = try #require(PhotoDecoder.metadata(in: try Self.bytes("heic/phf_arrow.heic")))
        let tiff = try #require(arrow.exif.first)
        #expect(EXIF.dateTimeOriginal(tiff: tiff) != nil)
        let paris = try #require(PhotoDecoder.metadata(in: try Self.bytes("avif/lavif_paris_icc_exif_xmp.avif")))
        #expect(paris.exif.count == 1 && paris.xmp.count == 1)
        #expect(HEIFContainerDecoder.tiff(inExifItem: [0, 0, 0, 9, 1, 2]) == nil)  // offset past the item
        #expect(HEIFContainerDecoder.tiff(inExifItem: [0xFF, 0xFF, 0xFF, 0xFF]) == nil)
    }

    @Test func colourComesFromTheColrBox() throws {
        let paris = try Self.decode("avif/lavif_paris_icc_exif_xmp.avif", to: ImageSize(width: 40, height: 30))
        guard case let .icc(profile)? = paris.colour else { Issue.record("\(String(describing: paris.colour))"); return }
        #expect(profile.count > 128)
        let sofa = try Self.decode("avif/lavif_sofa_grid1x5_420.avif", to: ImageSize(width: 40, height: 30))
        guard case .cicp(1, 13, 6, _)? = sofa.colour else { Issue.record("\(String(describing: sofa.colour))"); return }
        let noColr = try Self.decode("avif/linku_kimono.rotate90.avif", to: ImageSize(width: 40, height: 56))
        #expect(noColr.colour == nil)
    }

    // MARK: Hostile input

    @Test func aMegapixelBombIsRefusedFromItsHeader() throws {
        let options = DecodeOptions(maxMegapixels: 10)
        #expect {
            try PhotoDecoder(options: options).info(path: Self.path("heic/phf_arrow.heic"))
        } throws: { error in
            guard let error = error as? PhotoError, case .tooLarge(3024, 4032, _) = error.reason else { return false }
            return true
        }
    }

    /// 2,048 tiles of one pixel: 64x32 pixels pass any megapixel limit; the tile count does not.
    @Test func aGridOfTinyTilesIsRefusedFromItsHeader() throws {
        let bomb = SyntheticHEIF.grid(columns: 64, rows: 32)
        let decoder = HEIFDecoder(options: DecodeOptions())
        #expect {
            try decoder.readHeader(bytes: bomb, path: "bomb.heic")
        } throws: { error in
            "\(error)".contains("2048 tiles") && "\(error)".contains("bomb.heic")
        }
        let fine = SyntheticHEIF.grid(columns: 4, rows: 2)
        #expect(try decoder.readHeader(bytes: fine, path: "fine.heic").size == ImageSize(width: 4, height: 2))
    }

    /// libheif decodes a grid to its descriptor's size, whatever the ispe says: a grid whose ispe
    /// says 4x2 and whose descriptor says 30000x16000 (480 MP) is refused from its header, by the
    /// scan (which reads the descriptor from mdat) as by a decode, and one within the limit is
    /// counted at its descriptor's size.
    @Test func aGridIsBoundedByItsDescriptorsSize() throws {
        let bomb = SyntheticHEIF.grid(columns: 4, rows: 2, output: (30000, 16000))
        let tooLarge = PhotoError.Reason.tooLarge(width: 30000, height: 16000, maxMegapixels: 100)
        #expect(throws: PhotoError(path: "bomb.heic", reason: tooLarge)) {
            try HEIFDecoder(options: DecodeOptions()).readHeader(bytes: bomb, path: "bomb.heic")
        }
        let folder = try TemporaryDirectory("heif-grid")
        defer { folder.remove() }
        try Data(bomb).write(to: URL(fileURLWithPath: folder.file("bomb.heic")))
        #expect(throws: PhotoError(path: folder.file("bomb.heic"), reason: tooLarge)) {
            try PhotoDecoder().info(path: folder.file("bomb.heic"))
        }
        // Within the megapixels, its working memory is the descriptor's size: the one-large-decode
        // rule and the memory budget see it.
        let large = SyntheticHEIF.grid(columns: 4, rows: 2, output: (8000, 6000))
        let header = try HEIFDecoder(options: DecodeOptions()).readHeader(bytes: large, path: "large.heic")
        #expect(header.workingBytes >= 8000 * 6000 * 7)
        #expect(ImageKey(path: "large.heic", size: ImageSize(width: 8, height: 6), decoderBytes: header.workingBytes).holdsLargeWholeImage)
    }

    @Test func tilesAreCountedThroughNestedGrids() {
        let meta = SyntheticHEIF.metaPayload(primary: 1, references: [1: [2, 3], 2: Array(10..<40), 3: Array(40..<50)])
        #expect(HEIFBoxes.primaryItem(metaPayload: meta[...])?.tiles == 40)
        let cycle = SyntheticHEIF.metaPayload(primary: 1, references: [1: [2], 2: [1]])
        #expect(HEIFBoxes.primaryItem(metaPayload: cycle[...])?.tiles == Int.max)
        #expect(HEIFBoxes.primaryItem(metaPayload: SyntheticHEIF.metaPayload(primary: 7, references: [:])[...])?.tiles == 1)
    }

    @Test(arguments: [
        "heic/bad_phf_empty.heic", "heic/bad_phf_corrupted.heic", "avif/bad_derived_trunc50_linku_fox.avif",
    ])
    func brokenFilesAreRefusedWithAReason(_ file: String) throws {
        #expect {
            _ = try Self.decode(file, to: ImageSize(width: 64, height: 64))
        } throws: { error in
            guard let error = error as? PhotoError else { return false }
            print("\(file): \(error.reason.label): \(error.reason)")
            return error.path.hasSuffix(file) && !"\(error.reason)".isEmpty
        }
    }

    /// Files of the shared corpus whose licences keep them out of the repository: libheif 1.15's
    /// own size is unrotated for some of them; the header's comes from the boxes. (nokia_C008, an
    /// iden item with irot 90, is refused by libheif 1.15 itself: "Item with ID 1006 has no
    /// compressed data"; libheif 1.23 shows it.)
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/work/shared/corpus/formats/heic")),
          arguments: [("nokia_MIAF007.heic", 360, 640), ("lhf_rainbow-451x461.heic", 451, 461),
                      ("pp_iphone_15_pro.heic", 3024, 4032), ("pp_iphone_7.heic", 4032, 3024), ("phf_200MP.heic", 12240, 16320)])
    func sharedCorpusDisplayedSizes(_ name: String, _ width: Int, _ height: Int) throws {
        let path = "/work/shared/corpus/formats/heic/" + name
        let info = try PhotoDecoder(options: DecodeOptions(maxMegapixels: 250)).info(path: path)
        #expect(info.size == ImageSize(width: width, height: height))
        #expect(info.orientation == .normal)
        if width * height <= 13_000_000 {
            let image = try PhotoDecoder().decode(path: path, to: info.size.fitting(in: ImageSize(width: 400, height: 400))).image
            #expect(image.decodedSize == ImageSize(width: width, height: height) || image.scale != .one)
        }
    }

    /// The Samsung 200 MP photo: refused from its header at the default 100 MP, before any decode.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/work/shared/corpus/formats/heic/phf_200MP.heic")))
    func twoHundredMegapixelsAreRefusedByDefault() throws {
        #expect(throws: PhotoError.self) { try PhotoDecoder().info(path: "/work/shared/corpus/formats/heic/phf_200MP.heic") }
    }

    /// Every deliberately broken file of the shared corpus (not committed: their licences do not
    /// allow it) gives one PhotoError or an image, never a crash.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/work/shared/corpus/formats/heic")))
    func sharedCorpusBadFilesEachGiveOneError() throws {
        let decoder = try PhotoDecoder()
        for folder in ["heic", "avif"] {
            let root = "/work/shared/corpus/formats/" + folder
            for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where name.hasPrefix("bad_") {
                let path = root + "/" + name
                do {
                    let info = try decoder.info(path: path)
                    let image = try decoder.decode(path: path, to: info.size.fitting(in: ImageSize(width: 320, height: 320))).image
                    print("\(name): decoded \(info.format) \(info.size)\(image.warning.map { ", warning: \($0)" } ?? "")")
                } catch let error as PhotoError {
                    print("\(name): \(error.reason.label): \(error.reason)")
                    #expect(error.path == path)
                }
            }
        }
    }
}

/// A HEIF file built box by box: a grid of hvc1 tiles with no coded data (enough for libheif to
/// parse the boxes and for the header's bounds to be checked), and bare meta payloads.
enum SyntheticHEIF {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = 8 + payload.count
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }
    static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value) }

    static func iref(_ references: [Int: [Int]]) -> [UInt8] {
        fullBox("iref", references.sorted { $0.key < $1.key }.flatMap { from, to in
            box("dimg", u16(from) + u16(to.count) + to.flatMap(u16))
        })
    }

    static func metaPayload(primary: Int, references: [Int: [Int]]) -> [UInt8] {
        fullBox("pitm", u16(primary)) + iref(references)
    }

    /// `output`: the size the grid's descriptor gives (its ispe says `columns` x `rows` all the same).
    static func grid(columns: Int, rows: Int, output: (width: Int, height: Int)? = nil) -> [UInt8] {
        let tiles = Array(2..<(2 + columns * rows))
        let items = [1] + tiles
        let ftyp = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8))
        let hdlr = fullBox("hdlr", u32(0) + Array("pict".utf8) + u32(0) + u32(0) + u32(0) + [0])
        let iinf = fullBox("iinf", u16(items.count) + items.flatMap { item in
            fullBox("infe", version: 2, u16(item) + u16(0) + Array((item == 1 ? "grid" : "hvc1").utf8) + [0])
        })
        let ispeGrid = fullBox("ispe", u32(columns) + u32(rows)), ispeTile = fullBox("ispe", u32(1) + u32(1))
        // An HEVC decoder configuration with no parameter sets (23 bytes: version 1, no arrays).
        let hvcC = box("hvcC", [1, 1, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x5A, 0xF0, 0, 0xFC, 0xFD, 0xF8, 0xF8, 0, 0, 0x0F, 0])
        let ipco = box("ipco", ispeGrid + ispeTile + hvcC)
        let ipma = fullBox("ipma", u32(items.count) + items.flatMap { item in u16(item) + (item == 1 ? [1, 1] : [2, 2, 0x83]) })
        let iprp = box("iprp", ipco + ipma)
        // The grid's ImageGrid (version 0, 16-bit sizes) is the first 8 bytes of mdat; each tile's
        // data is one byte after it. iloc version 0, 4-byte offsets and lengths.
        func meta(mdatStart: Int) -> [UInt8] {
            let locations = items.flatMap { item -> [UInt8] in
                let extent: [UInt8] = item == 1 ? u32(mdatStart) + u32(8) : u32(mdatStart + 8) + u32(1)
                return u16(item) + u16(0) + u16(1) + extent
            }
            let iloc = fullBox("iloc", [0x44, 0x00] + u16(items.count) + locations)
            return fullBox("meta", hdlr + fullBox("pitm", u16(1)) + iinf + iloc + iprp + iref([1: tiles]))
        }
        let mdatStart = ftyp.count + meta(mdatStart: 0).count + 8
        let grid: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + u16(output?.width ?? columns) + u16(output?.height ?? rows)
        return ftyp + meta(mdatStart: mdatStart) + box("mdat", grid + [0])
    }
}
