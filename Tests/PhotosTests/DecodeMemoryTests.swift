import Dispatch
import Foundation
import Photos
import Testing
import TestSupport

/// SPEC §4: all decoded pixels count against cache.megabytes, and so does what a decode holds while
/// it runs. For a progressive JPEG that is above all libjpeg's whole-image coefficient buffer, which
/// does not shrink with the output: a 13 MP photo costs 53 MB however small its thumbnail.
@Suite struct DecodeMemoryTests {
    private let decoder = try! JPEGDecoder(maxMegapixels: 100)

    private func header(_ name: String) throws -> JPEGHeader {
        try decoder.readHeader(path: TestJPEGs.path("variants/\(name)"))
    }

    @Test func aProgressiveImageHoldsEveryComponentsCoefficients() throws {
        // 4224x3168 in 4:2:2: MCUs of 16x8, 264 x 396 of them, with two luma blocks and one of each
        // chroma: 4 blocks of 128 bytes each.
        #expect(try header("lomiri_Dragonfly_by_Bolly_13MP.jpg").coefficientBufferBytes == 264 * 396 * 4 * 128)
        // 2268x1512 in 4:2:0: MCUs of 16x16 (the last row and column padded), 142 x 95, six blocks each.
        #expect(try header("jxl_flower_q85_420_progr.jpg").coefficientBufferBytes == 142 * 95 * 6 * 128)
    }

    @Test func aSequentialImageInSeveralScansIsBufferedToo() throws {
        // 510x532 in 4:4:4, one scan per component: 64 x 67 MCUs of one block per component.
        #expect(try header("jxl_flower_small_q85_444_non_interleaved.jpg").coefficientBufferBytes == 64 * 67 * 3 * 128)
    }

    @Test func aSingleScanImageIsDecodedRowByRow() throws {
        #expect(try header("jxl_flower_q85_420_R13B.jpg").coefficientBufferBytes == 0)
        #expect(try header("derived_panorama_4272x480_crop_sunset.jpg").coefficientBufferBytes == 0)
    }

    @Test func aThumbnailOfA13MPProgressivePhotoReservesItsCoefficients() throws {
        let path = TestJPEGs.path("variants/lomiri_Dragonfly_by_Bolly_13MP.jpg")
        let photo = try PhotoDecoder().info(path: path)
        #expect(photo.decodeSourceBytes == photo.fileSize + 264 * 396 * 4 * 128)
        let key = ImageKey(photo: photo, size: ImageSize(width: 160, height: 120), kind: .thumbnail)
        // A 32 MB cache holds the 77 kB thumbnail but not the 55 MB its decode needs meanwhile: it
        // grows (SPEC §4: the most urgent image always fits) and says so.
        let cache = ImageCache(megabytes: 32)
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        let queue = DecodeQueue(cache: cache, workers: 1, decoding: DecodeOptions(maxMegapixels: 100), logger: log.logger) { _, _ in done.signal() }
        defer { queue.stop() }
        queue.want([key])
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(cache.contains(key))
        #expect(cache.byteLimit >= photo.decodeSourceBytes)
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("cache.megabytes cannot hold the photo on screen (\(path) at 160x120 needs 52.7 MB while it decodes, 52.5 MB of it the file and the decoder's whole-image buffer)") == true, "\(warnings)")
    }
}
