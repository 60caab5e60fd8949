import FuzzTargets
import Testing
import TestSupport

/// The `jpeg-header`, `captions`, `thumbnail`, `webp`, `heif`, `png` and `metadata-*` fuzz targets' committed corpora and regressions, through the
/// fuzzers' own entries: none crashes, a refused header says why, and the thumbnail files the
/// cache itself wrote decode.
@Suite struct FuzzCorpusTests {
    @Test(arguments: FuzzCorpus.inputs("jpeg-header"))
    func jpegHeaderReplays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { JPEGHeaderFuzzTarget.run($0) }
        switch outcome {
        case .rejected(let reason), .undecodable(let reason):
            #expect(reason.contains("fuzz.jpg"), "\(reason)")
        case .header(let width, let height):
            #expect(width > 0 && height > 0)
        }
    }

    /// The seeds are small WebPs of every kind (lossy, lossless, alpha, animated with a frame at an
    /// offset, metadata chunks) and a truncated one: each decodes, or is refused naming the file.
    @Test(arguments: FuzzCorpus.inputs("webp"))
    func webpReplays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { WebPFuzzTarget.run($0) }
        switch outcome {
        case .rejected(let reason), .undecodable(let reason):
            #expect(reason.contains("fuzz.webp"), "\(reason)")
            #expect(input.isRegression || input.path.contains("/bad_"), "\(input.path): \(reason)")
        case .decoded(let width, let height), .header(let width, let height):
            #expect(width > 0 && height > 0)
        }
    }

    /// The seeds are small HEIF and AVIF files (Tests/PhotosTests/Formats), a few broken on purpose:
    /// none crashes, a refused one says why.
    @Test(arguments: FuzzCorpus.inputs("heif"))
    func heifReplays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { HEIFFuzzTarget.run($0) }
        switch outcome {
        case .rejected(let reason), .undecodable(let reason):
            #expect(reason.contains("fuzz.heic"), "\(reason)")
        case .header(let width, let height):
            #expect(width > 0 && height > 0)
        }
    }

    /// PngSuite files: each valid one decodes, the corrupt one (an IDAT CRC error) is refused
    /// naming the file; nothing in the regressions crashes.
    @Test(arguments: FuzzCorpus.inputs("png"))
    func pngReplays(_ input: FuzzCorpus.Input) {
        switch FuzzCorpus.withBuffer(input, { PNGFuzzTarget.run($0) }) {
        case .rejected(let reason), .undecodable(let reason):
            #expect(reason.contains("fuzz.png"), "\(reason)")
            #expect(input.isRegression || input.path.contains("/ps_x"), "\(reason)")
        case .header(let width, let height):
            #expect(width > 0 && height > 0)
        }
    }

    /// The metadata targets' seeds are small photos of each container with EXIF, XMP, an ICC
    /// profile (and IPTC in the JPEG), written by exiftool: the caption is found in every one
    /// (from EXIF's ImageDescription and XMP's dc:title); the regressions only must not crash.
    @Test(arguments: [MetadataFuzzTarget.Container.jpeg, .png, .webp, .heif].flatMap { container in
        FuzzCorpus.inputs("metadata-\(container.rawValue)").map { (container, $0) }
    })
    func metadataReplays(_ container: MetadataFuzzTarget.Container, _ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { MetadataFuzzTarget.run($0, container: container) }
        if !input.isRegression {
            guard case let .read(exif, xmp, _, caption) = outcome else {
                Issue.record("\(input.path): \(outcome)")
                return
            }
            #expect(exif == 1 && xmp == 1 && caption, "\(input.path): \(outcome)")
        }
    }

    /// The seeds are real captions (as exiftool, Exiv2 and an editor write them): each is read.
    @Test(arguments: FuzzCorpus.inputs("captions"))
    func captionsReplay(_ input: FuzzCorpus.Input) {
        let reading = FuzzCorpus.withBuffer(input) { CaptionsFuzzTarget.run($0) }
        if !input.isRegression {
            #expect(reading?.caption != nil, "\(String(describing: reading))")
        }
    }

    @Test(arguments: FuzzCorpus.inputs("thumbnail"))
    func thumbnailReplays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { ThumbnailFuzzTarget.run($0) }
        if input.path.hasPrefix("Fuzz/Corpus/thumbnail/seed-") {
            #expect(outcome == .decoded)
        }
    }

    /// Every committed thumbnail input, then the seed: whatever the cache read before (a frame past
    /// 65,500 pixels spoilt TurboJPEG's handle, issue #22), a file it wrote itself still decodes.
    @Test func aThumbnailFileTheCacheWroteDecodesAfterAnyOther() throws {
        let seed = try #require(ThumbnailFuzzTarget.seed())
        for input in FuzzCorpus.inputs("thumbnail") {
            _ = FuzzCorpus.withBuffer(input) { ThumbnailFuzzTarget.run($0) }
            #expect(seed.withUnsafeBytes { ThumbnailFuzzTarget.run($0) } == .decoded, "after \(input.path)")
        }
    }

    @Test func thumbnailSeedIsWhatTheCacheWrites() throws {
        let seed = try #require(ThumbnailFuzzTarget.seed())
        #expect(seed.withUnsafeBytes { ThumbnailFuzzTarget.run($0) } == .decoded)
        #expect(FuzzCorpus.inputs("thumbnail").contains { $0.path.hasSuffix("/seed-gradient") })
    }
}
