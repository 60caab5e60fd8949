import Blitter
import Foundation
import Geometry
import Linux
@testable import Photos
import SystemPackage
import TestSupport
import Testing

@Suite struct OrientationFileTests {
    static let landscapes = (0...8).map { "orientation/Landscape_\($0).jpg" }
    static let portraits = (1...8).map { "orientation/Portrait_\($0).jpg" }
    /// Small enough to be quick, large enough to see the burnt-in labels.
    static let box = ImageSize(width: 150, height: 150)

    static func upright(_ file: String) throws -> Bitmap {
        let decoder = try JPEGDecoder()
        let header = try decoder.readHeader(path: TestJPEGs.path(file))
        return try decoder.decode(path: TestJPEGs.path(file), to: header.size.fitting(in: box)).bitmap
    }

    @Test(arguments: landscapes + portraits)
    func displaysUprightLikeOrientationOne(file: String) throws {
        let reference = try Self.upright(file.contains("Landscape") ? "orientation/Landscape_1.jpg" : "orientation/Portrait_1.jpg")
        let image = try Self.upright(file)
        #expect(image.size == reference.size)
        #expect(image.width == (file.contains("Landscape") ? 150 : 100))
        #expect(meanDifference(image, reference) < 6, "\(file)")
    }

    @Test func comparisonCatchesAWrongTransform() throws {
        // The check above would fail for a photo turned or mirrored wrongly.
        let reference = try Self.upright("orientation/Landscape_1.jpg")
        for wrong in [Orientation.rotate180, .flipHorizontal, .flipVertical] {
            #expect(meanDifference(wrong.apply(to: reference), reference) > 12, "\(wrong)")
        }
    }

    @Test func headersGiveStoredAndOrientedSizes() throws {
        let decoder = try JPEGDecoder()
        let six = try decoder.readHeader(path: TestJPEGs.path("orientation/Landscape_6.jpg"))
        #expect(six.storedSize == ImageSize(width: 1200, height: 1800))
        #expect(six.orientation == .rotate90)
        #expect(six.size == ImageSize(width: 1800, height: 1200))
        let zero = try decoder.readHeader(path: TestJPEGs.path("orientation/Landscape_0.jpg"))
        #expect(zero.orientation == .normal)
        #expect(zero.size == ImageSize(width: 1800, height: 1200))
    }
}

@Suite struct VariantTests {
    static let decodable = TestJPEGs.files(in: "variants").filter { !$0.contains("monkey12") }

    @Test(arguments: decodable)
    func decodesToTheExactTarget(file: String) throws {
        let decoder = try JPEGDecoder()
        let header = try decoder.readHeader(path: TestJPEGs.path(file))
        let target = header.size.fitting(in: ImageSize(width: 64, height: 64))
        let image = try decoder.decode(path: TestJPEGs.path(file), to: target)
        #expect(image.bitmap.size == Size(width: target.width, height: target.height))
        #expect(image.warning == nil)
        #expect(image.bitmap.pixels.allSatisfy { $0 & 0xFF00_0000 == 0 }, "XRGB8888 with a zero X byte")
        if header.storedSize.pixelCount >= 10_000 {
            #expect(lumaSpread(image.bitmap) > 5, "a picture, not a flat fill")
        }
    }

    static func full(_ file: String) throws -> DecodedImage {
        try JPEGDecoder().decode(path: TestJPEGs.path(file), to: ImageSize(width: 150, height: 103))
    }

    @Test func cmykAndRGBCodingsShowTheSamePicture() throws {
        let reference = try Self.full("variants/go_video-001.q50.444.jpeg").bitmap
        let cmyk = try Self.full("variants/go_video-001.cmyk.jpeg")
        #expect(try JPEGDecoder().readHeader(path: TestJPEGs.path("variants/go_video-001.cmyk.jpeg")).colorSpace == .cmyk)
        // Converted without a colour profile (as djpeg does) the CMYK rendering is darker than the
        // YCbCr one, but each channel follows it closely; read without the Adobe inversion it would
        // be the negative and anti-correlated.
        for channel in [Pixel.red, Pixel.green, Pixel.blue] {
            #expect(correlation(cmyk.bitmap, reference, channel) > 0.9)
        }
        #expect(meanDifference(cmyk.bitmap, reference) < 50)
        let negative = Bitmap(width: cmyk.bitmap.width, height: cmyk.bitmap.height, stride: cmyk.bitmap.stride,
                              pixels: cmyk.bitmap.pixels.map { ~$0 & 0x00FF_FFFF })
        #expect(correlation(negative, reference, Pixel.green) < -0.9)
        let rgb = try Self.full("variants/go_video-001.rgb.jpeg").bitmap
        #expect(meanDifference(rgb, reference) < 10)
    }

    @Test func ycckHasPlausibleColours() throws {
        let decoder = try JPEGDecoder()
        let image = try decoder.decode(path: TestJPEGs.path("variants/pil_sample_cmyk_ycck.jpg"), to: ImageSize(width: 100, height: 100))
        #expect(try decoder.readHeader(path: TestJPEGs.path("variants/pil_sample_cmyk_ycck.jpg")).colorSpace == .cmyk)
        // Compare with libjpeg's own YCCK -> CMYK path (the fallback decoder): TurboJPEG and libjpeg
        // take different code paths to the same pixels.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestJPEGs.path("variants/pil_sample_cmyk_ycck.jpg"))))
        let libjpeg = try decoder.decode(bytes: bytes, path: "ycck", to: ImageSize(width: 100, height: 100), route: .libjpeg).bitmap
        #expect(meanDifference(image.bitmap, libjpeg) < 2)
        // Plausible colours: the file is a photo with bright and dark parts, not a negative or a fill.
        #expect(lumaSpread(image.bitmap) > 20)
    }

    /// A header TurboJPEG refuses with an error (a frame past 65,500 pixels) does not spoil the
    /// decoder for the next file: libjpeg-turbo 2.1 leaves its handle mid-header after such an
    /// error, and the next sound file read "two SOI markers" and took the libjpeg route (issue
    /// #22). A file TurboJPEG leaves to libjpeg (4:1:0) does not either.
    @Test func aHeaderTurboJPEGRefusesDoesNotSpoilTheNextFile() throws {
        let decoder = try JPEGDecoder()
        let sound = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestJPEGs.path("variants/go_video-001.q50.444.jpeg"))))
        #expect(try decoder.readHeader(bytes: sound, path: "sound").route == .turboJPEG)
        #expect(try decoder.readHeader(path: TestJPEGs.path("variants/go_video-001.q50.410.jpeg")).route == .libjpeg)
        #expect(try decoder.readHeader(bytes: sound, path: "sound").route == .turboJPEG)

        // The same file with its frame 65,535 pixels wide: refused, and the next is read as before.
        var wide = sound
        let sof = try #require((0..<(wide.count - 9)).first { wide[$0] == 0xFF && wide[$0 + 1] == 0xC0 })
        (wide[sof + 7], wide[sof + 8]) = (0xFF, 0xFF)
        #expect(throws: PhotoError.self) { try decoder.readHeader(bytes: wide, path: "wide") }
        let after = try decoder.readHeader(bytes: sound, path: "sound")
        #expect(after.route == .turboJPEG && after.warning == nil, "\(after)")
        let image = try decoder.decode(bytes: sound, path: "sound", to: ImageSize(width: 75, height: 52))
        #expect(image.warning == nil)
    }

    @Test func subsampling410FallsBackToLibjpeg() throws {
        let decoder = try JPEGDecoder()
        let header = try decoder.readHeader(path: TestJPEGs.path("variants/go_video-001.q50.410.jpeg"))
        #expect(header.route == .libjpeg)
        #expect(header.storedSize == ImageSize(width: 150, height: 103))
        let image = try Self.full("variants/go_video-001.q50.410.jpeg").bitmap
        let reference = try Self.full("variants/go_video-001.q50.444.jpeg").bitmap
        #expect(meanDifference(image, reference) < 10)
        // Scaled decoding works on this route too: 1/4 is the smallest factor covering 38x26.
        let small = try decoder.decode(path: TestJPEGs.path("variants/go_video-001.q50.410.jpeg"), to: ImageSize(width: 38, height: 26))
        #expect(small.scale == ScalingFactor(num: 1, denom: 4))
        #expect(small.decodedSize == ImageSize(width: 38, height: 26))
        #expect(small.bitmap.size == Size(width: 38, height: 26))
    }

    @Test func thirteenMegapixelsAreNeverDecodedAtFullSize() throws {
        let decoder = try JPEGDecoder()
        let file = TestJPEGs.path("variants/lomiri_Dragonfly_by_Bolly_13MP.jpg")
        let header = try decoder.readHeader(path: file)
        #expect(header.storedSize == ImageSize(width: 4224, height: 3168))
        let screen = header.size.fitting(in: ImageSize(width: 1920, height: 1080))
        let image = try decoder.decode(path: file, to: screen)
        #expect(image.bitmap.size == Size(width: 1440, height: 1080))
        #expect(image.scale == ScalingFactor(num: 3, denom: 8))
        #expect(image.decodedSize == ImageSize(width: 1584, height: 1188))
    }
}

@Suite struct BadFileTests {
    /// Through `PhotoDecoder`, the seam the library and the decode workers use: the decoder is
    /// chosen by the file's content.
    static func reason(_ file: String, maxMegapixels: Double = 100) throws -> PhotoError.Reason? {
        do {
            _ = try PhotoDecoder(options: DecodeOptions(maxMegapixels: maxMegapixels))
                .decode(path: TestJPEGs.path(file), to: ImageSize(width: 64, height: 64))
            return nil
        } catch let error as PhotoError {
            #expect(error.path == TestJPEGs.path(file))
            return error.reason
        }
    }

    @Test func eachRefusedFileHasItsReason() throws {
        #expect(try Self.reason("bad/bad_empty.jpg") == .empty)
        // A PNG named .jpg is a PNG: the PNG decoder claims it, and it shows.
        #expect(try Self.reason("bad/bad_png_renamed_go_video-001.jpg") == nil)
        // No decoder claims this one: a format-neutral reason.
        #expect(try Self.reason("bad/bad_text_renamed_README.jpg") == .unknownFormat(firstBytes: Array("EXIF Ori".utf8)))
        #expect(try Self.reason("bad/bad_soi_eoi_only.jpg") == .noImage)
        #expect(try Self.reason("bad/bad_truncated_after_header_ljt_testorig.jpg") == .noImageData)
        #expect(try Self.reason("bad/bad_zero_width_ljt_testorig.jpg") == .zeroSize(width: 0, height: 149))
        #expect(try Self.reason("variants/ljt_monkey12.jpg") == .unsupported(format: "JPEG", "12-bit samples"))
    }

    @Test func theBombIsRefusedFromItsHeader() throws {
        let file = TestJPEGs.path("bad/bad_bomb_60000x60000_ljt_testorig.jpg")
        let decoder = try JPEGDecoder(maxMegapixels: 100)
        #expect(throws: PhotoError(path: file, reason: .tooLarge(width: 60000, height: 60000, maxMegapixels: 100))) {
            try decoder.readHeader(path: file)
        }
        #expect(throws: PhotoError(path: file, reason: .tooLarge(width: 60000, height: 60000, maxMegapixels: 100))) {
            try decoder.decode(path: file, to: ImageSize(width: 64, height: 64))
        }
        // The limit is the only thing that refuses it, and the limit is in megapixels.
        #expect(try Self.reason("orientation/Landscape_1.jpg", maxMegapixels: 2.0) == .tooLarge(width: 1800, height: 1200, maxMegapixels: 2.0))
        #expect(try Self.reason("orientation/Landscape_1.jpg", maxMegapixels: 2.16) == nil)
    }

    /// djpeg shows these with a warning (exit 2); so does the viewer, and says why.
    @Test(arguments: ["bad/bad_truncated_50pct_Landscape_1.jpg", "bad/pil_truncated_jpeg.jpg",
                      "bad/bad_corrupt_huffman_ljt_testorig.jpg", "bad/pil_junk_jpeg_header.jpg"])
    func damagedFilesDecodeWithAWarning(file: String) throws {
        let decoder = try JPEGDecoder()
        let image = try decoder.decode(path: TestJPEGs.path(file), to: ImageSize(width: 64, height: 48))
        #expect(image.bitmap.size == Size(width: 64, height: 48))
        let warning = try #require(image.warning)
        #expect(warning.contains("Premature end") || warning.contains("Corrupt JPEG data"))
    }

    @Test func junkBytesDoNotSpoilThePicture() throws {
        let image = try JPEGDecoder().decode(path: TestJPEGs.path("bad/pil_junk_jpeg_header.jpg"), to: ImageSize(width: 128, height: 96))
        #expect(image.header.warning?.contains("extraneous bytes") == true)
        #expect(lumaSpread(image.bitmap) > 10)
    }

    @Test func truncatedFilesCutInTheHeadersAreRefused() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestJPEGs.path("variants/ljt_testorig.jpg"))))
        let decoder = try JPEGDecoder()
        for length in [1, 2, 3, 20, 100, 300] {
            #expect(throws: PhotoError.self) { try decoder.readHeader(bytes: Array(whole.prefix(length)), path: "cut") }
        }
        #expect(throws: PhotoError(path: "cut", reason: .truncatedHeader)) {
            try decoder.readHeader(bytes: Array(whole.prefix(300)), path: "cut")
        }
    }

    @Test func missingFileIsUnreadable() throws {
        let missing = SystemError("stat", path: "/nonexistent/x.jpg", errno: .noSuchFileOrDirectory)
        #expect(throws: PhotoError(path: "/nonexistent/x.jpg", reason: .unreadable(missing))) {
            try JPEGDecoder().readHeader(path: "/nonexistent/x.jpg")
        }
    }
}

@Suite struct ScalingTests {
    @Test func picksTheSmallestFactorThatCovers() throws {
        let decoder = try JPEGDecoder()
        let stored = ImageSize(width: 1800, height: 1200)
        // A 200x200 grid cell, aspect-fill: the photo must cover 300x200.
        let target = stored.filling(ImageSize(width: 200, height: 200))
        #expect(target == ImageSize(width: 300, height: 200))
        let factor = decoder.scalingFactor(stored: stored, orientation: .normal, target: target)
        #expect(factor == ScalingFactor(num: 1, denom: 4))  // 450x300; 1/8 would give 225x150
        // Stored sideways (orientation 6): the same displayed target needs the same factor.
        #expect(decoder.scalingFactor(stored: stored.transposed, orientation: .rotate90, target: target) == factor)
    }

    @Test func chosenFactorCoversAndNoSmallerOneDoes() {
        let factors = (1...16).map { ScalingFactor(num: $0, denom: 8) }
        let image = ImageSize(width: 4224, height: 3168)
        for width in stride(from: 1, through: 4224, by: 97) {
            let target = image.fitting(in: ImageSize(width: width, height: 4000))
            let chosen = ScalingFactor.smallestCovering(target, from: image, among: factors)
            let out = chosen.scale(image)
            #expect(out.width >= target.width && out.height >= target.height)
            #expect(chosen.num <= chosen.denom, "never enlarges")
            for smaller in factors where smaller.num * chosen.denom < chosen.num * smaller.denom {
                let s = smaller.scale(image)
                #expect(s.width < target.width || s.height < target.height, "\(smaller) also covers \(target)")
            }
        }
        // A target larger than the image: decode at 1/1, the resampler enlarges.
        #expect(ScalingFactor.smallestCovering(ImageSize(width: 300, height: 300), from: ImageSize(width: 150, height: 103),
                                               among: factors) == .one)
    }

    @Test func fillAndFitKeepTheAspectRatio() {
        let panorama = ImageSize(width: 4272, height: 480)
        #expect(panorama.filling(ImageSize(width: 200, height: 200)) == ImageSize(width: 1780, height: 200))
        #expect(panorama.fitting(in: ImageSize(width: 1920, height: 1080)) == ImageSize(width: 1920, height: 216))
        #expect(ImageSize(width: 1, height: 1).fitting(in: ImageSize(width: 1920, height: 1080)) == ImageSize(width: 1080, height: 1080))
    }
}
