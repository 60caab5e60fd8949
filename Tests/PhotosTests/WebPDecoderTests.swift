import Blitter
import Colour
import Foundation
@testable import Photos
import TestSupport
import Testing

/// The WebPs of Tests/PhotosTests/Formats/webp (see its ATTRIBUTION.md), and what Debian's `dwebp`
/// (libwebp 1.2.4, the same library) makes of them.
enum TestWebPs {
    static let root = TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats/webp").path

    static func path(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// `dwebp -pam` of the file, composed over black (premultiplied, as Vitrine shows alpha).
    static func dwebp(_ file: String) throws -> Bitmap {
        let folder = try TemporaryDirectory("dwebp")
        defer { folder.remove() }
        let output = folder.file("out.pam")
        let result = try ProcessResult.run(["-quiet", "-pam", file, "-o", output], executable: "/usr/bin/dwebp")
        #expect(result.status == 0, "dwebp: \(result.stderr)")
        return try pamOverBlack(Array(Data(contentsOf: URL(fileURLWithPath: output))))
    }

    /// A PAM file of RGB_ALPHA (what dwebp writes), each colour times its alpha.
    static func pamOverBlack(_ bytes: [UInt8]) throws -> Bitmap {
        let marker = Array("ENDHDR\n".utf8)
        let end = try #require((0...(bytes.count - marker.count)).first { bytes[$0..<$0 + marker.count].elementsEqual(marker) })
        var fields: [String: Int] = [:]
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        let width = try #require(fields["WIDTH"]), height = try #require(fields["HEIGHT"])
        #expect(fields["DEPTH"] == 4 && fields["MAXVAL"] == 255)
        let data = bytes[(end + marker.count)...].map { UInt32($0) }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for i in pixels.indices {
            let p = data.startIndex + i * 4, a = data[p + 3]
            let over = { (c: UInt32) in (c * a + 127) / 255 }
            pixels[i] = over(data[p]) << 16 | over(data[p + 1]) << 8 | over(data[p + 2])
        }
        return Bitmap(width: width, height: height, stride: width, pixels: pixels)
    }

    static func decode(_ name: String, to target: ImageSize? = nil) throws -> DecodedImage {
        let decoder = WebPDecoder()
        let bytes = try bytes(name)
        let header = try decoder.readHeader(bytes: bytes, path: name)
        return try decoder.decode(bytes: bytes, path: name, to: target ?? header.size)
    }

    static func refusal(_ name: String) -> PhotoError? {
        do {
            _ = try PhotoDecoder().decode(path: path(name), to: ImageSize(width: 64, height: 64))
            return nil
        } catch {
            return error as? PhotoError
        }
    }
}

@Suite struct WebPDecoderTests {
    @Test(arguments: [
        ("pil_flower2.webp", 300, 225), ("pil_transparent.webp", 200, 150), ("webprs_tiny.webp", 10, 7),
        ("derived_lossless_pil_transparent.webp", 200, 150),
    ])
    func fullSizeDecodeIsDwebpsOverBlack(name: String, width: Int, height: Int) throws {
        let image = try TestWebPs.decode(name)
        #expect(image.bitmap.width == width && image.bitmap.height == height)
        #expect(image.header.format == "WebP")
        #expect(image.decodedSize == ImageSize(width: width, height: height))
        let reference = try TestWebPs.dwebp(TestWebPs.path(name))
        // The same library: only alpha premultiplication may round differently.
        #expect(largestDifference(image.bitmap, reference) <= 1, "\(name)")
        #expect(image.bitmap.pixels.allSatisfy { $0 >> 24 == 0 }, "the X byte is zero")
    }

    @Test func alphaIsComposedOverBlack() throws {
        // Lossy with ALPH and lossless with alpha: transparent corners are black, opaque parts not.
        for name in ["pil_transparent.webp", "derived_lossless_pil_transparent.webp"] {
            let image = try TestWebPs.decode(name)
            let reference = try TestWebPs.dwebp(TestWebPs.path(name))
            #expect(image.bitmap[0, 0] == 0, "\(name)")
            #expect(reference[0, 0] == 0)
            #expect(lumaSpread(image.bitmap) > 10)
        }
    }

    @Test func scaledDecodeIsCloseToTheFullDecodeResampled() throws {
        for name in ["pil_flower2.webp", "derived_lossless_pil_transparent.webp"] {
            let full = try TestWebPs.decode(name)
            let target = full.bitmap.size.width == 300 ? ImageSize(width: 100, height: 75) : ImageSize(width: 80, height: 60)
            let scaled = try TestWebPs.decode(name, to: target)
            #expect(scaled.bitmap.width == target.width && scaled.bitmap.height == target.height)
            // libwebp's rescaler did the work: no resampling after it.
            #expect(scaled.decodedSize == target)
            let resampled = full.bitmap.resized(width: target.width, height: target.height)
            #expect(meanDifference(scaled.bitmap, resampled) < 3, "\(name): \(meanDifference(scaled.bitmap, resampled))")
        }
    }

    @Test func aTargetLargerThanTheImageIsResampledFromTheFullDecode() throws {
        let image = try TestWebPs.decode("webprs_tiny.webp", to: ImageSize(width: 40, height: 28))
        #expect(image.decodedSize == ImageSize(width: 10, height: 7))
        #expect(image.bitmap.width == 40 && image.bitmap.height == 28)
    }

    @Test func animationShowsItsFirstFrame() throws {
        for name in ["webprs_random_lossy.webp", "webprs_random_lossless.webp"] {
            let image = try TestWebPs.decode(name)
            // dwebp does not decode animations: webpmux takes the first frame out as a still.
            let folder = try TemporaryDirectory("frame")
            defer { folder.remove() }
            let still = folder.file("frame1.webp")
            let result = try ProcessResult.run(["-get", "frame", "1", TestWebPs.path(name), "-o", still], executable: "/usr/bin/webpmux")
            #expect(result.status == 0, "\(result.stderr)")
            let reference = try TestWebPs.dwebp(still)
            #expect(image.bitmap.size == reference.size)
            #expect(largestDifference(image.bitmap, reference) <= 1, "\(name)")
            // And not the second frame (random noise differs everywhere).
            let second = folder.file("frame2.webp")
            _ = try ProcessResult.run(["-get", "frame", "2", TestWebPs.path(name), "-o", second], executable: "/usr/bin/webpmux")
            #expect(meanDifference(image.bitmap, try TestWebPs.dwebp(second)) > 20)
        }
    }

    @Test func aFirstFrameSmallerThanTheCanvasSitsAtItsOffsetOnBlack() throws {
        let image = try TestWebPs.decode("derived_offset_frame_pil_hopper.webp")
        // 128x128 canvas, frame 64x48 at (32, 16); EXIF is not carried by webpmux -frame.
        #expect(image.bitmap.width == 128 && image.bitmap.height == 128)
        #expect(image.bitmap[31, 40] == 0 && image.bitmap[96, 40] == 0 && image.bitmap[60, 15] == 0 && image.bitmap[60, 64] == 0)
        #expect(image.bitmap[32, 16] != 0 || image.bitmap[40, 30] != 0)
        let frame = Bitmap(width: 64, height: 48, stride: 64,
                           pixels: (16..<64).flatMap { y in (32..<96).map { x in image.bitmap[x, y] } })
        let reference = try TestWebPs.dwebp(TestWebPs.path("pil_hopper_orientation_6.webp")).resized(width: 64, height: 48)
        #expect(meanDifference(frame, reference) < 8)
        // Scaled by half, the frame lands at (16, 8), 32x24.
        let half = try TestWebPs.decode("derived_offset_frame_pil_hopper.webp", to: ImageSize(width: 64, height: 64))
        #expect(half.decodedSize == ImageSize(width: 64, height: 64))
        #expect(half.bitmap[15, 20] == 0 && half.bitmap[48, 20] == 0 && half.bitmap[30, 7] == 0 && half.bitmap[30, 32] == 0)
        #expect(lumaSpread(Bitmap(width: 32, height: 24, stride: 32,
                                  pixels: (8..<32).flatMap { y in (16..<48).map { x in half.bitmap[x, y] } })) > 10)
    }

    @Test func exifOrientationSixIsApplied() throws {
        for name in ["pil_hopper_orientation_6.webp", "derived_baretiff_xmp_pil_hopper_orientation_6.webp"] {
            let image = try TestWebPs.decode(name)
            #expect(image.header.orientation == .rotate90, "\(name)")
            let stored = try TestWebPs.dwebp(TestWebPs.path(name))
            #expect(largestDifference(image.bitmap, Orientation.rotate90.apply(to: stored)) <= 1)
            #expect(meanDifference(image.bitmap, stored) > 20, "turned, not as stored")
        }
    }

    @Test func theHeaderReadReadsOnToTheExifChunkAtTheEnd() throws {
        // 64 kB of XMP before the EXIF chunk: the first read (the prefix) does not reach it.
        let hopper = try TestWebPs.bytes("pil_hopper_orientation_6.webp")
        let exifAt = try #require((12..<hopper.count).first { hopper[$0..<$0 + 4].elementsEqual("EXIF".utf8) })
        let padding = [UInt8](repeating: 0x20, count: 100_000)
        let xmp = Array("XMP ".utf8) + [0xA0, 0x86, 0x01, 0x00] + padding  // 100,000 little-endian
        var file = Array(hopper[..<exifAt]) + xmp + Array(hopper[exifAt...])
        let riff = file.count - 8
        file.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), UInt8(riff >> 24)])
        let folder = try TemporaryDirectory("webp-header")
        defer { folder.remove() }
        try Data(file).write(to: URL(fileURLWithPath: folder.file("far.webp")))
        let info = try PhotoDecoder().info(path: folder.file("far.webp"))
        #expect(info.orientation == .rotate90)
        #expect(info.storedSize == ImageSize(width: 128, height: 128))
    }

    @Test func metadataChunksAndTheICCProfile() throws {
        let flower = try TestWebPs.bytes("pil_flower2.webp")
        let metadata = try #require(PhotoDecoder.metadata(in: flower))
        #expect(metadata.exif.count == 1 && metadata.exif[0].starts(with: Array("MM\0*".utf8)))
        #expect(metadata.exif[0].count == 6573)
        #expect(metadata.xmp.count == 1 && metadata.xmp[0].starts(with: Array("<?xpacket".utf8)))
        let image = try TestWebPs.decode("pil_flower2.webp")
        guard case let .icc(profile)? = image.colour else {
            Issue.record("no ICC profile: \(String(describing: image.colour))")
            return
        }
        #expect(profile.count == 3144)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        // A file without ICCP has no description (sRGB, nothing to convert).
        #expect(try TestWebPs.decode("pil_transparent.webp").colour == nil)
    }

    /// One bound per kind of block (`MetadataBounds`), on the chunk's declared size: an ICCP chunk
    /// over 4 MB is not copied (the photo shows unconverted, saying why), an EXIF chunk over 64 KB
    /// and an XMP chunk over 1 MB are not read, each a line for the caption's warning.
    @Test func chunksOverTheirBoundsAreNotRead() throws {
        let flower = try TestWebPs.bytes("pil_flower2.webp")
        let hugeProfile = Self.replacing("ICCP", with: [UInt8](repeating: 0, count: MetadataBounds.iccBytes + 1), in: flower)
        let decoder = WebPDecoder()
        let image = try decoder.decode(bytes: hugeProfile, path: "icc.webp",
                                       to: try decoder.readHeader(bytes: hugeProfile, path: "icc.webp").size)
        #expect(image.colour == nil)
        #expect(image.colourWarning?.contains("ICCP") == true && image.colourWarning?.contains("4 MB") == true)
        var large = Self.replacing("EXIF", with: Array("MM\0*".utf8) + [UInt8](repeating: 0, count: MetadataBounds.exifBytes + 8), in: flower)
        large = Self.replacing("XMP ", with: [UInt8](repeating: 0x20, count: MetadataBounds.xmpBytes + 1), in: large)
        let metadata = try #require(PhotoDecoder.metadata(in: large))
        #expect(metadata.exif.isEmpty && metadata.xmp.isEmpty)
        #expect(metadata.unread.count == 2)
        #expect(metadata.unread.contains { $0.contains("EXIF chunk") && $0.contains("64 KB") })
        #expect(metadata.unread.contains { $0.contains("XMP chunk") && $0.contains("1 MB") })
    }

    /// The RIFF file `file` with the payload of its first chunk `fourCC` replaced.
    static func replacing(_ fourCC: String, with payload: [UInt8], in file: [UInt8]) -> [UInt8] {
        func u32(_ at: Int) -> Int { Int(file[at]) | Int(file[at + 1]) << 8 | Int(file[at + 2]) << 16 | Int(file[at + 3]) << 24 }
        func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        var offset = 12
        while offset + 8 <= file.count, !file[offset..<offset + 4].elementsEqual(fourCC.utf8) {
            offset += 8 + u32(offset + 4) + (u32(offset + 4) & 1)
        }
        let end = offset + 8 + u32(offset + 4) + (u32(offset + 4) & 1)
        var out = Array(file[..<offset]) + Array(fourCC.utf8) + le(payload.count) + payload + (payload.count & 1 == 1 ? [0] : [])
        out += file[end...]
        out.replaceSubrange(4..<8, with: le(out.count - 8))
        return out
    }

    @Test func exifWithOrWithoutJPEGsSignatureIsTheTIFFStructure() throws {
        // Pillow writes "Exif\0\0" before the TIFF header; the specification and webpmux do not.
        for name in ["pil_hopper_orientation_6.webp", "derived_baretiff_xmp_pil_hopper_orientation_6.webp"] {
            let metadata = try #require(PhotoDecoder.metadata(in: try TestWebPs.bytes(name)))
            #expect(metadata.exif.count == 1)
            #expect(metadata.exif.first?.starts(with: Array("II*\0".utf8)) == true, "\(name)")
            #expect(EXIF.orientationValue(app1Payload: (EXIF.app1Header + metadata.exif[0])[...]) == 6)
        }
    }

    @Test func captionsAndTheDateComeFromTheChunks() throws {
        let reader = CaptionReader(includeDate: true, dateFormat: "%Y-%m-%d")
        let titled = reader.read(photoPath: TestWebPs.path("derived_baretiff_xmp_pil_hopper_orientation_6.webp"))
        #expect(titled.caption?.title == "Hopper, turned")
        #expect(titled.caption?.source == .xmp)
        let dated = reader.read(photoPath: TestWebPs.path("webprs_tiny.webp"))
        #expect(dated.caption?.date == "2007-10-19", "\(String(describing: dated))")
    }

    @Test func theContentDecidesNotTheName() throws {
        let info = try PhotoDecoder().info(path: TestWebPs.path("derived_webp_named_pil_transparent.jpg"))
        #expect(info.format == "WebP")
        #expect(info.storedSize == ImageSize(width: 200, height: 150))
        let (image, _) = try PhotoDecoder().decode(path: TestWebPs.path("derived_webp_named_pil_transparent.jpg"), to: ImageSize(width: 100, height: 75))
        #expect(image.bitmap.width == 100)
        #expect(PhotoDecoder.isCandidateName("a.WebP"))
    }

    @Test(arguments: [
        ("bad_derived_trunc50_pil_flower2.webp", "truncated: the file has 10776 bytes, its RIFF header says 21552"),
        ("bad_derived_trunc60_webprs_random_lossy.webp", "truncated: the file has 13599 bytes, its RIFF header says 22666"),
        ("bad_derived_startcode_pil_transparent.webp", "WebPGetFeatures: invalid bitstream"),
    ])
    func badFilesAreRefusedWithOneReason(name: String, message: String) throws {
        let error = try #require(TestWebPs.refusal(name))
        #expect(error.reason == .corrupt(format: "WebP", message), "\(error)")
        #expect("\(error)".contains(name))
    }

    @Test func aHeaderBrokenOffIsATruncatedHeader() throws {
        // The RIFF size made to match a file cut inside the VP8X chunk.
        var bytes = Array(try TestWebPs.bytes("pil_flower2.webp").prefix(20))
        bytes.replaceSubrange(4..<8, with: [12, 0, 0, 0])
        #expect(throws: PhotoError(path: "cut.webp", reason: .truncatedHeader)) {
            try WebPDecoder().readHeader(bytes: bytes, path: "cut.webp")
        }
    }

    @Test func aCanvasPastTheLimitIsRefusedFromTheHeader() throws {
        // A VP8X canvas of 16384 x 16384 and nothing else: refused without decoding.
        var bytes = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0xFF, 0x3F, 0, 0xFF, 0x3F, 0]
        #expect(throws: PhotoError(path: "bomb.webp", reason: .tooLarge(width: 16384, height: 16384, maxMegapixels: 100))) {
            try WebPDecoder().readHeader(bytes: bytes, path: "bomb.webp")
        }
    }

    @Test func workingBytesSayWhatLibwebpHolds() throws {
        let decoder = WebPDecoder()
        let lossy = try decoder.readHeader(bytes: TestWebPs.bytes("pil_flower2.webp"), path: "a")
        #expect(lossy.workingBytes == 300 * WebPDecoder.rowBytesPerColumn)
        let alpha = try decoder.readHeader(bytes: TestWebPs.bytes("pil_transparent.webp"), path: "b")
        #expect(alpha.workingBytes == 2 * 200 * 150 + 200 * WebPDecoder.rowBytesPerColumn)
        let lossless = try decoder.readHeader(bytes: TestWebPs.bytes("derived_lossless_pil_transparent.webp"), path: "c")
        #expect(lossless.workingBytes == 4 * 200 * 150 + 200 * WebPDecoder.rowBytesPerColumn)
    }
}
