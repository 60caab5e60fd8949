import Blitter
import Clips
import Foundation
import TestSupport
import Testing

@Suite struct ClipReaderTests {
    static let goodClips = ["h264-30fps.mp4", "h264-24fps.mov", "h264-fullrange.m4v", "h264-10bit.mkv", "hevc.mp4", "vp9.webm",
                            "av1.webm", "rotated-90.mp4", "rt_test_live.mov"]

    @Test(arguments: goodClips)
    func infoIsWhatFFprobeSays(_ name: String) throws {
        let path = ClipTestFiles.path(name)
        let info = try ClipReader(path: path).info
        let probe = try ClipTestFiles.probe(path, "stream=codec_name,width,height,avg_frame_rate,duration:stream_side_data=rotation")
        let container = try ClipTestFiles.probe(path, "format=duration")
        #expect(info.codec == probe["codec_name"])
        #expect(info.storedWidth == Int(probe["width"] ?? ""))
        #expect(info.storedHeight == Int(probe["height"] ?? ""))
        // ffprobe's rotation is counter-clockwise: -90 is a quarter turn clockwise.
        let rotation = Int(probe["rotation"] ?? "0") ?? 0
        #expect(info.rotation == ((-rotation % 360) + 360) % 360)
        // The stream's duration, else the container's (Matroska says only the latter).
        let duration = Double(probe["duration"] ?? "") ?? Double(container["duration"] ?? "") ?? -1
        #expect(abs(info.duration - duration) < 0.001, "\(info.duration) against \(duration)")
        let rate = probe["avg_frame_rate"]!.split(separator: "/").compactMap { Double($0) }
        #expect(abs(info.frameRate - rate[0] / rate[1]) < 0.01)
    }

    @Test func framesMatchFFmpegsAtTheSameIndex() throws {
        // Same swscale filter (bilinear) and the same order (scale at the stored orientation, then
        // turn): the frames differ by rounding at most. Tolerance 3 of 255: ffmpeg's filter graph
        // converts in slices and may pick another internal path than one sws_scale of the frame.
        for (name, width, height) in [("h264-30fps.mp4", 200, 150), ("rotated-90.mp4", 120, 160), ("h264-fullrange.m4v", 320, 240),
                                      ("h264-10bit.mkv", 160, 120), ("hevc.mp4", 160, 120), ("vp9.webm", 160, 120),
                                      ("av1.webm", 160, 120)] {
            let path = ClipTestFiles.path(name)
            let reader = try ClipReader(path: path)
            let references = try ClipTestFiles.ffmpegFrames(path, width: width, height: height, count: 12)
            #expect(references.count == 12, "\(name)")
            for (index, reference) in references.enumerated() {
                let frame = try #require(try reader.nextFrame(width: width, height: height), "\(name) frame \(index)")
                #expect(frame.index == index)
                #expect(frame.bitmap.width == width && frame.bitmap.height == height)
                let difference = largestDifference(frame.bitmap, reference)
                #expect(difference <= 3, "\(name) frame \(index): largest difference \(difference)")
            }
        }
    }

    /// Widths around libswscale's SIMD blocks of 8 and 16 pixels, at the clip's own size (where
    /// libswscale only converts, with its widest loops) and scaled: every row leaves libswscale
    /// a whole block (#36: rows of exactly the width made it write 16 bytes past a 300x300 frame),
    /// the padding is black, and the pixels are ffmpeg's own. Clips of these sizes are made here by
    /// ffmpeg (raw 4:2:0 in Matroska: any width; H.264 needs even ones).
    @Test func oddWidthsKeepTheirPixelsAndLeaveLibswscaleAWholeBlock() throws {
        let folder = NSTemporaryDirectory() + "vitrine-clip-odd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (width, height) in [(1, 1), (7, 3), (9, 9), (15, 2), (17, 9), (31, 5), (33, 17), (300, 20)] {
            let path = folder + "/\(width)x\(height).mkv"
            let made = try ProcessResult.run(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10",
                                              "-vf", "scale=\(width):\(height)", "-frames:v", "1", "-c:v", "rawvideo",
                                              "-pix_fmt", "yuv420p", "-y", path], executable: "/usr/bin/ffmpeg")
            try #require(made.status == 0, "ffmpeg: \(made.stderr)")
            for (targetWidth, targetHeight) in [(width, height), (width + 2, height + 1)] {
                let reader = try ClipReader(path: path)
                let frame = try #require(try reader.nextFrame(width: targetWidth, height: targetHeight)).bitmap
                #expect(frame.stride % 16 == 0 && frame.stride - frame.width < 16, "\(targetWidth)x\(targetHeight): stride \(frame.stride)")
                #expect(frame.pixels.count >= frame.stride * frame.height + 16)
                for y in 0..<frame.height {
                    #expect(frame.pixels[y * frame.stride + frame.width..<(y + 1) * frame.stride].allSatisfy { $0 == 0 })
                }
                let reference = try #require(try ClipTestFiles.ffmpegFrames(path, width: targetWidth, height: targetHeight, count: 1).first)
                let difference = largestDifference(frame, reference)
                #expect(difference <= 3, "\(width)x\(height) at \(targetWidth)x\(targetHeight): largest difference \(difference)")
            }
        }
    }

    @Test(arguments: ["h264-30fps.mp4", "h264-24fps.mov", "vp9.webm", "rt_test_live.mov"])
    func frameTimesAreFFprobesPresentationTimes(_ name: String) throws {
        let path = ClipTestFiles.path(name)
        let expected = try ClipTestFiles.frameTimes(path)
        let reader = try ClipReader(path: path)
        var times: [Double] = []
        while let frame = try reader.nextFrame(width: 32, height: 32) { times.append(frame.time) }
        #expect(times.count == expected.count)
        for (time, reference) in zip(times, expected) { #expect(abs(time - reference) < 0.0005) }
    }

    @Test func thePhonesUprightClipComesOutPortrait() throws {
        let reader = try ClipReader(path: ClipTestFiles.livePhotoMovie)
        #expect(reader.info.rotation == 90)
        #expect(reader.info.displayWidth == 1440 && reader.info.displayHeight == 1920)
        let frame = try #require(try reader.nextFrame(width: 1440, height: 1920))
        #expect(frame.bitmap.width == 1440 && frame.bitmap.height == 1920)
        let reference = try ClipTestFiles.ffmpegFrames(ClipTestFiles.livePhotoMovie, width: 1440, height: 1920, count: 1)
        #expect(largestDifference(frame.bitmap, try #require(reference.first)) <= 3)
    }

    @Test func rewindGivesTheFirstFrameAgain() throws {
        let reader = try ClipReader(path: ClipTestFiles.path("h264-30fps.mp4"))
        let first = try #require(try reader.nextFrame(width: 64, height: 48))
        for _ in 0..<40 { _ = try reader.nextFrame(width: 64, height: 48) }
        try reader.rewind()
        let again = try #require(try reader.nextFrame(width: 64, height: 48))
        #expect(again.index == 0 && again.time == 0)
        #expect(again.bitmap.pixels == first.bitmap.pixels)
        // And after the end.
        while try reader.nextFrame(width: 64, height: 48) != nil {}
        try reader.rewind()
        #expect(try reader.nextFrame(width: 64, height: 48)?.bitmap.pixels == first.bitmap.pixels)
    }

    @Test func theDecoderIsNamedAndSoftwareWithoutAnM2MDevice() throws {
        let reader = try ClipReader(path: ClipTestFiles.path("h264-30fps.mp4"), preferHardware: true)
        // This machine has no /dev/video* memory-to-memory device: h264_v4l2m2m fails to open.
        if !FileManager.default.fileExists(atPath: "/dev/video0") {
            #expect(reader.decoderName == "h264")
            #expect(!reader.isHardware)
        }
        #expect(try ClipReader(path: ClipTestFiles.path("av1.webm")).decoderName == "libdav1d")
    }

    @Test func aClipInMemoryReadsAsTheFile() throws {
        let path = ClipTestFiles.path("vp9.webm")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fromMemory = try ClipReader(bytes: bytes, name: "vp9.webm")
        let fromFile = try ClipReader(path: path)
        #expect(fromMemory.info == fromFile.info)
        #expect(try fromMemory.nextFrame(width: 40, height: 30)?.bitmap.pixels == fromFile.nextFrame(width: 40, height: 30)?.bitmap.pixels)
    }
}
