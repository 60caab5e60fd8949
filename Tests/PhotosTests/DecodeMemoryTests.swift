import Blitter
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
        // A 64 MB cache holds the 53 MB its decode needs meanwhile, and the 77 kB thumbnail: no growth.
        let roomy = ImageCache(megabytes: 64)
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        let queue = DecodeQueue(cache: roomy, workers: 1, decoding: DecodeOptions(maxMegapixels: 100), logger: log.logger) { _, _ in done.signal() }
        defer { queue.stop() }
        queue.want([key])
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(roomy.contains(key))
        #expect(roomy.byteLimit == 64 << 20)
        #expect(log.messages.filter { $0.level == .warning }.isEmpty)
    }

    /// The cache never grows for what a file asks its decode to hold past the decode limit: with a
    /// limit of 32 MB (a 32 MB cache, a queue of other decoders), the 53 MB of a 13 MP progressive
    /// JPEG's decode is refused without a decode, with one warning naming the file and the limit.
    @Test func aDecodeLargerThanTheCacheIsRefusedNotGrownFor() throws {
        let path = TestJPEGs.path("variants/lomiri_Dragonfly_by_Bolly_13MP.jpg")
        let photo = try PhotoDecoder().info(path: path)
        let key = ImageKey(photo: photo, size: ImageSize(width: 160, height: 120), kind: .thumbnail)
        let cache = ImageCache(megabytes: 32)
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<MipChain, PhotoError>?
        let queue = DecodeQueue(cache: cache, workers: 1, decoding: DecodeOptions(maxMegapixels: 100), logger: log.logger) { _, result in
            outcome = result
            done.signal()
        }
        defer { queue.stop() }
        queue.want([key])
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(!cache.contains(key))
        #expect(cache.byteLimit == 32 << 20)
        guard case let .failure(error)? = outcome, case .tooLargeForMemory(photo.decodeSourceBytes, 32 << 20) = error.reason else {
            Issue.record("not refused for the budget: \(String(describing: outcome))")
            return
        }
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings == ["Skipping photo \(path): its decode would hold 53 MB (the file and the decoder's buffers), more than the "
            + "32 MB a decode may (cache.megabytes, or 8 bytes a pixel of photos.max_megapixels)"])
        // Photos' own limit: cache.megabytes, or 8 bytes a pixel of max_megapixels when more.
        #expect(DecodeOptions(maxMegapixels: 5, cacheMegabytes: 32).memoryBudget == 40_000_000)
        #expect(DecodeOptions(maxMegapixels: 5, cacheMegabytes: 64).memoryBudget == 64 << 20)
        // A decode as large as its pixels passes Photos' own: 13 MP at 4 bytes a pixel, under 8.
        #expect(try PhotoDecoder(options: DecodeOptions(maxMegapixels: 14, cacheMegabytes: 32)).info(path: path).size == photo.size)
    }
}
