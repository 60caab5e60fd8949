import Blitter
import Clips
import Foundation
import Logging
@testable import Photos
import TestSupport
import Testing

/// A clip's poster through the decoder seam (SPEC §12): the content picks the clip decoder, never
/// a HEIF or AVIF file; the header is the container's (displayed size after the display matrix);
/// the poster is the first frame at the target size, read without reading the whole file.
@Suite struct ClipDecoderTests {
    static let clips = TestPaths.root.appendingPathComponent("Tests/ClipsTests/Clips").path
    static func clip(_ name: String) -> String { clips + "/" + name }
    static let formats = TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats").path

    private func start(_ path: String) throws -> ArraySlice<UInt8> {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        return ArraySlice(try handle.read(upToCount: PhotoDecoder.headerPrefix) ?? Data())
    }

    @Test func clipsAreToldFromHEIFAndAVIFByTheirBrands() throws {
        for name in ["h264-30fps.mp4", "h264-24fps.mov", "h264-fullrange.m4v", "h264-10bit.mkv", "hevc.mp4", "vp9.webm", "av1.webm",
                     "rt_test_live.mov"] {
            #expect(PhotoDecoder.format(of: try start(Self.clip(name))) == ClipDecoder.self, "\(name)")
        }
        #expect(PhotoDecoder.format(of: try start(Self.clip("rt_test_live.HEIC"))) == HEIFDecoder.self)
        for name in ["heic/lhf_example.heic", "avif/lavif_white_1x1.avif", "avif/linku_kimono.rotate90.avif"] {
            #expect(PhotoDecoder.format(of: try start(Self.formats + "/" + name)) != ClipDecoder.self, "\(name)")
        }
        // A QuickTime movie without ftyp, and boxes that are no movie.
        #expect(ClipDecoder.claims(ArraySlice([0, 0, 0, 8] + Array("wide".utf8) + [0, 0, 0, 8] + Array("mdat".utf8))))
        #expect(!ClipDecoder.claims(ArraySlice([0, 0, 0, 16] + Array("ftypcrx ".utf8) + [0, 0, 0, 1])))  // a Canon CR3
        #expect(!ClipDecoder.claims(ArraySlice(Array("This is a text file".utf8))))
        #expect(PhotoDecoder.isCandidateName("IMG_0001.MOV") && PhotoDecoder.isCandidateName("a.webm"))
    }

    @Test func theHeaderIsTheContainersWithTheDisplayMatrixAsOrientation() throws {
        let decoder = try PhotoDecoder(options: DecodeOptions())
        let info = try decoder.info(path: Self.clip("rt_test_live.mov"))
        #expect(info.format == "clip (hevc)")
        #expect(info.storedSize == ImageSize(width: 1920, height: 1440))
        #expect(info.orientation == .rotate90)
        #expect(info.size == ImageSize(width: 1440, height: 1920))
        #expect(info.clip?.rotation == 90)
        #expect(info.decoderBytes >= 1920 * 1440 * 3 / 2)
        let plain = try decoder.info(path: Self.clip("vp9.webm"))
        #expect(plain.format == "clip (vp9)" && plain.size == ImageSize(width: 320, height: 240) && plain.orientation == .normal)
        #expect(abs((plain.clip?.duration ?? 0) - 1) < 0.001)
    }

    @Test func thePosterIsTheFirstFrameUprightAtTheTarget() throws {
        let decoder = try PhotoDecoder(options: DecodeOptions())
        let (image, metadata) = try decoder.decode(path: Self.clip("rt_test_live.mov"), to: ImageSize(width: 90, height: 120), metadata: true)
        #expect(image.bitmap.width == 90 && image.bitmap.height == 120)
        #expect(metadata == ImageMetadata.none)
        let reader = try ClipReader(path: Self.clip("rt_test_live.mov"))
        let first = try #require(try reader.nextFrame(width: 90, height: 120))
        #expect(image.bitmap.pixels == first.bitmap.pixels)
    }

    @Test func thePosterReadsOnlyWhatItsFirstFrameNeeds() throws {
        // The Live Photo's movie is 3.2 MB; its first frame and index are a fraction of it.
        final class ReadCounter: @unchecked Sendable {
            let lock = NSLock()
            var bytes = 0
        }
        let path = Self.clip("rt_test_live.mov")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let counter = ReadCounter()
        let reader = try ClipReader(name: path, size: size) { count, offset in
            let handle = try #require(FileHandle(forReadingAtPath: path))
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            counter.lock.withLock { counter.bytes += data.count }
            return [UInt8](data)
        }
        _ = try #require(try reader.nextFrame(width: 30, height: 40))
        #expect(counter.bytes < size / 2, "read \(counter.bytes) of \(size) bytes")
    }

    @Test func badClipsAreSkippedWithAReason() throws {
        let small = try PhotoDecoder(options: DecodeOptions(maxMegapixels: 0.05)), usual = try PhotoDecoder(options: DecodeOptions())
        func reason(_ name: String, decode: Bool = false, maxMegapixels: Double = 100) -> PhotoError.Reason? {
            let decoder = maxMegapixels < 1 ? small : usual
            do {
                if decode {
                    _ = try decoder.decode(path: Self.clip(name), to: ImageSize(width: 32, height: 24))
                } else {
                    _ = try decoder.info(path: Self.clip(name))
                }
                return nil
            } catch let error as PhotoError {
                #expect(error.path == Self.clip(name))
                return error.reason
            } catch {
                Issue.record("\(error)")
                return nil
            }
        }
        #expect(reason("bad-no-streams.mp4") == .noImage)
        #expect(reason("bad-audio-only.mp4") == .noImage)
        #expect(reason("h264-30fps.mp4", maxMegapixels: 0.05) == .tooLarge(width: 320, height: 240, maxMegapixels: 0.05))
        #expect(reason("bad-absurd-size.mp4")?.label == "corrupt")
        #expect("\(reason("bad-absurd-size.mp4")!)".contains("20000x240"))
        #expect("\(reason("bad-zero-duration.mp4")!)" == "corrupt or unsupported clip: zero or unknown duration")
        // Frames that do not decode: skipped, with the reason.
        #expect("\(reason("bad-truncated.mp4", decode: true).map { "\($0)" } ?? "shown")" == "shown")
        // Named .mp4 but claimed by no decoder: the scan's usual skip.
        #expect(reason("bad-not-a-clip.mp4")?.label == "unknown_format")
    }

    @Test func theHeaderDecodesNoFrameAndAClipOfNoDecodableFrameIsSkipped() throws {
        // The 30 fps clip with its frames' data (the mdat box's payload) wiped: the container is
        // whole, no frame decodes.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.clip("h264-30fps.mp4"))))
        let mdat = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual("mdat".utf8) })
        for index in (mdat + 4)..<bytes.count { bytes[index] = 0xFF }
        let folder = try TemporaryDirectory("clip-wiped")
        defer { folder.remove() }
        let path = folder.file("wiped.mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let decoder = try PhotoDecoder(options: DecodeOptions())
        #expect(try decoder.info(path: path).clip?.codec == "h264")
        #expect(throws: PhotoError(path: path, reason: .corrupt(format: "clip", "no frame of it decodes"))) {
            try decoder.decode(path: path, to: ImageSize(width: 32, height: 24))
        }
    }

    @Test func aScanOfManyClipsIsQuick() throws {
        let folder = try TemporaryDirectory("clip-scan")
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.clip("h264-30fps.mp4")))
        for index in 0..<100 { try bytes.write(to: URL(fileURLWithPath: folder.file("clip-\(index).mp4"))) }
        let started = Date()
        let library = try PhotoLibrary(scanning: folder.path, logger: LogRecorder().logger)
        let seconds = Date().timeIntervalSince(started)
        #expect(library.items.count == 100)
        #expect(library.items.allSatisfy { $0.picture.clip?.codec == "h264" })
        print("scan of 100 clips: \(Int(seconds * 1000)) ms")
        #expect(seconds < 30)  // a sanity bound only
    }
}
