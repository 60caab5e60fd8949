import Blitter
import Foundation
@testable import Photos
import TestSupport
import Testing

/// SPEC §4: every size that comes from a file is bounded before anything is allocated.
@Suite struct DecodeTargetTests {
    static let screen = ImageSize(width: 1920, height: 1080)

    @Test func ordinaryPhotosKeepTheirFillAndFitSizes() {
        let photo = ImageSize(width: 4000, height: 3000)
        #expect(photo.decodeTarget(.thumbnail(cellSide: 320)) == ImageSize(width: 427, height: 320))
        #expect(photo.decodeTarget(.screen(Self.screen, maxZoom: 4)) == ImageSize(width: 1440, height: 1080))
    }

    /// Whatever the aspect ratio, a thumbnail is at most twice its cell on a side and a screen image
    /// at most the screen: a 65500x1 strip is a thin line (its fill would be 20960000x320).
    @Test(arguments: [ImageSize(width: 65500, height: 1), ImageSize(width: 1, height: 65500),
                      ImageSize(width: 16000, height: 4), ImageSize(width: 65535, height: 65535), ImageSize(width: 3, height: 2)])
    func targetsAreBoundedWhateverTheAspectRatio(photo: ImageSize) {
        let thumbnail = photo.decodeTarget(.thumbnail(cellSide: 320))
        #expect(thumbnail.width <= 640 && thumbnail.height <= 640 && !thumbnail.isEmpty)
        let screen = photo.decodeTarget(.screen(Self.screen, maxZoom: 4))
        #expect(screen.width <= 1920 && screen.height <= 1080 && !screen.isEmpty)
    }

    @Test func aStripsThumbnailIsAThinLine() {
        #expect(ImageSize(width: 65500, height: 1).decodeTarget(.thumbnail(cellSide: 320)) == ImageSize(width: 640, height: 1))
    }

    /// The decode of a 65500x1 JPEG: TurboJPEG's scaled output (1/8: 8188x1) and the result are
    /// thin lines too.
    @Test func aStripDecodesThroughASmallBuffer() throws {
        let folder = try TemporaryDirectory("strip")
        defer { folder.remove() }
        let path = folder.file("strip.jpg")
        try Data(try JPEGEncoder().encode(Bitmap(width: 65500, height: 1), quality: 50)).write(to: URL(fileURLWithPath: path))
        let decoder = try JPEGDecoder()
        let header = try decoder.readHeader(path: path)
        let target = header.size.decodeTarget(.thumbnail(cellSide: 320))
        let image = try decoder.decode(path: path, to: target)
        #expect(image.bitmap.width == 640 && image.bitmap.height == 1)
        #expect(image.decodedSize.pixelCount <= 8188)
    }

    /// A caller that asks the decoder for a huge target directly is refused, not served.
    @Test func theDecoderRefusesATargetAboveMaxMegapixels() throws {
        let bytes = try JPEGEncoder().encode(Bitmap(width: 64, height: 1))
        let decoder = try JPEGDecoder(maxMegapixels: 1)
        #expect(throws: PhotoError.self) {
            try decoder.decode(bytes: bytes, path: "strip.jpg", to: ImageSize(width: 20_960_000, height: 320))
        }
    }
}
