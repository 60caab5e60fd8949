import Blitter
import Colour
import Foundation
@testable import Photos
import TestSupport
import Testing

/// JPEGs made from `colour/flower_p3.jpg` with other ICC profiles, or its own split into chunks.
enum ProfiledJPEG {
    static let p3Path = TestJPEGs.path("colour/flower_p3.jpg")
    static var p3: [UInt8] { FileManager.default.contents(atPath: p3Path).map { [UInt8]($0) } ?? [] }
    static let size = ImageSize(width: 300, height: 200)

    /// `jpeg` without its ICC segments, with `chunks` put in as APP2 segments after SOI, in order.
    static func jpeg(_ jpeg: [UInt8], chunks: [(sequence: UInt8, count: UInt8, data: ArraySlice<UInt8>)]) -> [UInt8] {
        var bytes = jpeg
        for chunk in JPEGLayout(parsing: jpeg[...]).iccChunks.reversed() {
            bytes.removeSubrange((chunk.data.lowerBound - 4 - JPEGLayout.iccSignature.count - 2)..<chunk.data.upperBound)
        }
        let segments = chunks.flatMap { chunk -> [UInt8] in
            let length = 2 + JPEGLayout.iccSignature.count + 2 + chunk.data.count
            return [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + JPEGLayout.iccSignature + [chunk.sequence, chunk.count] + chunk.data
        }
        bytes.insert(contentsOf: segments, at: 2)
        return bytes
    }

    /// `jpeg` with `profile` as its only ICC profile, in `count` chunks (nil: none).
    static func jpeg(_ jpeg: [UInt8], profile: [UInt8]?, count: Int = 1) -> [UInt8] {
        guard let profile else { return self.jpeg(jpeg, chunks: []) }
        let size = (profile.count + count - 1) / count
        let parts = stride(from: 0, to: profile.count, by: size).map { profile[$0..<min($0 + size, profile.count)] }
        return self.jpeg(jpeg, chunks: parts.enumerated().map { (UInt8($0.offset + 1), UInt8(parts.count), $0.element) })
    }

    /// The ICC profile of the JPEG at `path`.
    static func profile(of path: String) -> [UInt8]? {
        guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }),
              case let .success(profile)? = JPEGLayout(parsing: bytes[...]).iccProfile(in: bytes[...]) else { return nil }
        return profile
    }

    /// Decodes `bytes` through a `PhotoDecoder` (written to a temporary file).
    static func decode(_ bytes: [UInt8], with decoder: PhotoDecoder? = nil, size: ImageSize = size) throws -> DecodedImage {
        let folder = try TemporaryDirectory("colour")
        defer { folder.remove() }
        let path = folder.file("photo.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try (decoder ?? PhotoDecoder()).decode(path: path, to: size).image
    }
}

@Suite struct ColourJPEGTests {
    @Test func aDisplayP3PhotoLooksAsPillowsImageCmsMakesIt() throws {
        // colour/make_colour_tests.py made the photo and the reference (Pillow's decode converted
        // with ImageCms, perceptual); `jpgicc -q 100` is within 1 level of it too (mean 0.09).
        let reference = try PNGTestDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath:
            TestJPEGs.path("colour/flower_p3.srgb-pillow.png")))))
        let decoded = try PhotoDecoder().decode(path: ProfiledJPEG.p3Path, to: ProfiledJPEG.size).image
        #expect(decoded.colour == .icc(ProfiledJPEG.profile(of: ProfiledJPEG.p3Path) ?? []))
        #expect(decoded.colourWarning == nil)
        #expect(meanDifference(decoded.bitmap, reference) < 0.3)
        #expect(largestDifference(decoded.bitmap, reference) <= 2)
        // Unconverted, the photo is visibly off: the comparison can fail.
        let unconverted = try JPEGDecoder().decode(path: ProfiledJPEG.p3Path, to: ProfiledJPEG.size)
        #expect(meanDifference(unconverted.bitmap, reference) > 2)
    }

    @Test func anSRGBProfiledPhotoIsBitIdenticalToAnUnprofiledOne() throws {
        // ICC's sRGB2014 profile, as libjpeg-turbo's monkey12.jpg embeds it (lcms's own sRGB:
        // ColourTests).
        let sRGB2014 = try #require(ProfiledJPEG.profile(of: TestJPEGs.path("variants/ljt_monkey12.jpg")))
        #expect(sRGB2014.count == 3024)
        let decoder = try PhotoDecoder()
        let plain = try ProfiledJPEG.decode(ProfiledJPEG.jpeg(ProfiledJPEG.p3, profile: nil), with: decoder)
        #expect(plain.colour == nil)
        let profiled = try ProfiledJPEG.decode(ProfiledJPEG.jpeg(ProfiledJPEG.p3, profile: sRGB2014), with: decoder)
        #expect(profiled.colour == .icc(sRGB2014))
        #expect(profiled.colourWarning == nil)
        #expect(profiled.bitmap.pixels == plain.bitmap.pixels)
        #expect(decoder.colourStatistics.untouched == 1 && decoder.colourStatistics.converted == 0)
    }

    @Test func aGarbageProfileIsAWarningAndThePixelsStayAsTheyAre() throws {
        let plain = try ProfiledJPEG.decode(ProfiledJPEG.jpeg(ProfiledJPEG.p3, profile: nil))
        let garbage = [UInt8]("this is not an ICC profile at all, but it is long enough to look like one".utf8)
        let image = try ProfiledJPEG.decode(ProfiledJPEG.jpeg(ProfiledJPEG.p3, profile: garbage))
        #expect(image.colourWarning?.hasPrefix("its colour description cannot be used: cmsOpenProfileFromMem failed: ") == true,
                "\(image.colourWarning ?? "none")")
        #expect(image.warning == nil)
        #expect(image.bitmap.pixels == plain.bitmap.pixels)
    }

    @Test func aProfileSplitOverSeveralChunksIsJoinedInSequenceOrder() throws {
        let profile = try #require(ProfiledJPEG.profile(of: ProfiledJPEG.p3Path))
        let whole = try ProfiledJPEG.decode(ProfiledJPEG.p3)
        let third = (profile.count + 2) / 3
        let parts = [profile[0..<third], profile[third..<2 * third], profile[(2 * third)...]]
        // Written out of order: 3, 1, 2.
        let split = ProfiledJPEG.jpeg(ProfiledJPEG.p3, chunks: [(3, 3, parts[2]), (1, 3, parts[0]), (2, 3, parts[1])])
        let image = try ProfiledJPEG.decode(split)
        #expect(image.colour == .icc(profile))
        #expect(image.bitmap.pixels == whole.bitmap.pixels)
    }

    @Test func missingOrRepeatedChunksAreAWarningAndNoConversion() throws {
        let profile = try #require(ProfiledJPEG.profile(of: ProfiledJPEG.p3Path))
        let plain = try ProfiledJPEG.decode(ProfiledJPEG.jpeg(ProfiledJPEG.p3, profile: nil))
        let half = profile.count / 2
        let cases: [([(sequence: UInt8, count: UInt8, data: ArraySlice<UInt8>)], String)] = [
            ([(1, 3, profile[..<half]), (3, 3, profile[half...])], "its ICC profile lacks chunk 2 of 3"),
            ([(1, 2, profile[..<half]), (1, 2, profile[half...])], "its ICC profile's chunk 1 appears twice"),
            ([(1, 2, profile[..<half]), (2, 3, profile[half...])], "its ICC profile's APP2 chunks disagree on how many there are"),
            ([(0, 0, profile[...])], "its ICC profile has a chunk numbered 0 of 0"),
        ]
        for (chunks, warning) in cases {
            let image = try ProfiledJPEG.decode(ProfiledJPEG.jpeg(ProfiledJPEG.p3, chunks: chunks))
            #expect(image.colour == nil)
            #expect(image.colourWarning == warning)
            #expect(image.bitmap.pixels == plain.bitmap.pixels)
        }
    }

    @Test func aProfileOverTheBoundIsRefusedBeforeItIsJoined() {
        let chunk = [UInt8](repeating: 0, count: 65_000)
        let chunks = (1...70).map { (UInt8($0), UInt8(70), chunk[...]) }
        let bytes = ProfiledJPEG.jpeg(ProfiledJPEG.p3, chunks: chunks)
        let result = JPEGLayout(parsing: bytes[...]).iccProfile(in: bytes[...])
        #expect(result == .failure(.tooLarge(bytes: 70 * 65_000)))
    }

    @Test func theSecondPhotoWithTheSameProfileReusesTheTransform() throws {
        let decoder = try PhotoDecoder()
        _ = try decoder.decode(path: ProfiledJPEG.p3Path, to: ProfiledJPEG.size)
        _ = try decoder.decode(path: ProfiledJPEG.p3Path, to: ImageSize(width: 150, height: 100))
        #expect(decoder.colourStatistics == .init(converted: 2, untouched: 0, cacheHits: 1, cacheMisses: 1))
    }

    @Test func theQueueLogsAnUnusableProfileOnceWithoutCallingThePhotoDamaged() throws {
        let folder = try TemporaryDirectory("colour-queue")
        defer { folder.remove() }
        let path = folder.file("garbage-profile.jpg")
        try Data(ProfiledJPEG.jpeg(ProfiledJPEG.p3, profile: [UInt8](repeating: 7, count: 200))).write(to: URL(fileURLWithPath: path))
        let photo = try PhotoDecoder().info(path: path)
        let log = LogRecorder()
        let done = DispatchSemaphore(value: 0)
        let queue = DecodeQueue(cache: ImageCache(megabytes: 64), workers: 1, logger: log.logger) { _, _ in done.signal() }
        defer { queue.stop() }
        for size in [ImageSize(width: 300, height: 200), ImageSize(width: 150, height: 100)] {
            queue.want([ImageKey(photo: photo, size: size, kind: .screen)])
            #expect(done.wait(timeout: .now() + 60) == .success)
        }
        let warnings = log.messages.filter { $0.level == .warning }.map(\.text)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("Photo \(path): its colours are shown unconverted: its colour description cannot be used: cmsOpenProfileFromMem failed") == true,
                "\(warnings)")
        #expect(queue.failure(for: path) == nil)
    }
}
