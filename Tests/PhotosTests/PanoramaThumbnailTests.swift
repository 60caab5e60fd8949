import Blitter
import Foundation
import Geometry
import Photos
import TestSupport
import Testing

/// A panorama's grid cell is as sharp as any other: its thumbnail is the centred crop of a decode
/// whose short side covers the cell, not the whole panorama shrunk to twice the cell's side (a
/// 4272x480 photo in a 475 px cell was 950x107, enlarged 4.4 times).
@Suite struct PanoramaThumbnailTests {
    @Test func aPanoramasThumbnailKeepsTheCellsResolution() {
        let panorama = ImageSize(width: 4272, height: 480)
        #expect(panorama.thumbnailDecodeSize(cellSide: 475) == ImageSize(width: 4228, height: 475))
        #expect(panorama.decodeTarget(.thumbnail(cellSide: 475)) == ImageSize(width: 950, height: 475))
        // Upright, the same.
        #expect(panorama.transposed.decodeTarget(.thumbnail(cellSide: 475)) == ImageSize(width: 475, height: 950))
        // Up to 2:1 the thumbnail is the whole photo, as before.
        let photo = ImageSize(width: 4000, height: 3000)
        #expect(photo.thumbnailDecodeSize(cellSide: 320) == photo.decodeTarget(.thumbnail(cellSide: 320)))
    }

    /// The decode is bounded too: 16 cells on its long side, past 16:1 a thin line as before.
    @Test func theDecodeBeforeTheCropIsBounded() {
        #expect(ImageSize(width: 20000, height: 1000).thumbnailDecodeSize(cellSide: 320) == ImageSize(width: 5120, height: 256))
        #expect(ImageSize(width: 20000, height: 1000).decodeTarget(.thumbnail(cellSide: 320)) == ImageSize(width: 640, height: 256))
        #expect(ImageSize(width: 65500, height: 1).thumbnailDecodeSize(cellSide: 320) == ImageSize(width: 5120, height: 1))
        // The cache counts the decode's whole output while it runs.
        let key = ImageKey(path: "p.jpg", size: ImageSize(width: 640, height: 320), kind: .thumbnail, sourceBytes: 100,
                           decodeSize: ImageSize(width: 2880, height: 320))
        #expect(key.sourceBytes == 100 + 2880 * 320 * 4)
        #expect(ImageKey(path: "p.jpg", size: ImageSize(width: 427, height: 320), kind: .thumbnail,
                         decodeSize: ImageSize(width: 427, height: 320)).decodeSize == nil)
    }

    /// A 3600x400 JPEG in three bands (red, green, blue from left to right) for 200 px cells: the
    /// thumbnail is 400x200, all of it from the green middle, decoded at the cell's resolution.
    @Test func aPanoramaDecodesToItsCentredCrop() throws {
        let folder = try TemporaryDirectory("panorama")
        defer { folder.remove() }
        var bands = Bitmap(width: 3600, height: 400)
        bands.fill(PixelRect(x: 0, y: 0, width: 1200, height: 400), color: 0xFF_00_00)
        bands.fill(PixelRect(x: 1200, y: 0, width: 1200, height: 400), color: 0x00_FF_00)
        bands.fill(PixelRect(x: 2400, y: 0, width: 1200, height: 400), color: 0x00_00_FF)
        // Stripes 2 px wide over the green band: 1 px at the cell's resolution, gone in a
        // thumbnail shrunk below it.
        for x in Swift.stride(from: 1200, to: 2400, by: 4) { bands.fill(PixelRect(x: x, y: 0, width: 2, height: 400), color: 0x00_60_00) }
        let path = folder.file("panorama.jpg")
        try Data(try JPEGEncoder().encode(bands, quality: 95)).write(to: URL(fileURLWithPath: path))
        let logger = LogRecorder().logger
        let library = try PhotoLibrary(scanning: folder.path, logger: logger)
        let images = LibraryImages(items: library.items, screenSize: ImageSize(width: 800, height: 480), cellSide: 200,
                                   cacheMegabytes: 64, decoding: DecodeOptions(), logger: logger, onDecoded: {})
        images.want([.thumbnail(0)])
        images.waitUntilSettled()
        let thumbnail = try #require(images.thumbnail(0))
        #expect(thumbnail.width == 400 && thumbnail.height == 200)
        // Only green: no red or blue from the sides.
        let foreign = thumbnail.pixels.filter { ($0 >> 16 & 0xFF) > 40 || ($0 & 0xFF) > 40 }.count
        #expect(foreign == 0)
        // The stripes are still there, not flattened to one green.
        let row = (0..<thumbnail.width).map { Int(thumbnail[$0, 100] >> 8 & 0xFF) }
        let swing = zip(row, row.dropFirst()).map { abs($0 - $1) }.max() ?? 0
        #expect(swing > 40, "the stripes are lost: \(row.prefix(12))")
    }
}
