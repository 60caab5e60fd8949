import Clips
import Foundation
import Glibc
import Testing
import TestSupport

/// Bad clips are refused with their reason before anything is decoded, or end early; never a
/// crash or a hang (SPEC §12). The time bounds are generous sanity limits, not speed assertions.
@Suite struct ClipRefusalTests {
    private func reason(_ open: () throws -> ClipReader) -> ClipError.Reason? {
        do {
            _ = try open()
            return nil
        } catch let error as ClipError {
            return error.reason
        } catch {
            Issue.record("not a ClipError: \(error)")
            return nil
        }
    }

    private func reason(_ name: String, limits: ClipLimits = ClipLimits()) -> ClipError.Reason? {
        reason { try ClipReader(path: ClipTestFiles.path(name), limits: limits) }
    }

    private func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: ClipTestFiles.path(name))))
    }

    @Test func eachBadClipIsRefusedWithItsReason() throws {
        #expect(reason("bad-no-streams.mp4") == .noVideoStream)
        #expect(reason("bad-audio-only.mp4") == .noVideoStream)
        #expect(reason("bad-absurd-size.mp4") == .absurdSize(width: 20000, height: 240))
        #expect(reason("bad-zero-duration.mp4") == .noDuration)
        #expect(reason("h264-30fps.mp4", limits: ClipLimits(maxMegapixels: 0.05)) == .tooLarge(width: 320, height: 240, maxMegapixels: 0.05))
        #expect(reason("h264-30fps.mp4", limits: ClipLimits(maxFileBytes: 1000)) == .fileTooLarge(bytes: 43830, limit: 1000))
        guard case let .ffmpeg(call, _, message) = reason("bad-not-a-clip.mp4") else {
            Issue.record("a text file named .mp4 is not refused by libavformat")
            return
        }
        #expect(call == "avformat_open_input" && !message.isEmpty)
    }

    /// A clip of `streams` copies of one tiny video stream (ffmpeg's -map repeated), in a
    /// temporary folder the caller removes.
    private func clip(streams: Int, container: String) throws -> String {
        let folder = NSTemporaryDirectory() + "vitrine-clip-streams-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/streams-\(streams).\(container)"
        let maps = (0..<streams).flatMap { _ in ["-map", "0:v"] }
        let result = try ProcessResult.run(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=32x24:rate=10",
                                            "-frames:v", "2"] + maps + ["-c:v", "mjpeg", "-y", path], executable: "/usr/bin/ffmpeg")
        try #require(result.status == 0, "ffmpeg: \(result.stderr)")
        return path
    }

    /// libavformat stops at the max_streams Vitrine sets (ClipLimits.maxStreams) and answers
    /// ENOMEM, "Cannot allocate memory": the message names the limit instead.
    @Test(arguments: ["mov", "mkv"]) func aClipWithMoreStreamsThanTheLimitSaysSo(container: String) throws {
        let tooMany = try clip(streams: 33, container: container)
        let enough = try clip(streams: 32, container: container)
        defer {
            try? FileManager.default.removeItem(atPath: (tooMany as NSString).deletingLastPathComponent)
            try? FileManager.default.removeItem(atPath: (enough as NSString).deletingLastPathComponent)
        }
        #expect(reason { try ClipReader(path: tooMany) } == .tooManyStreams(limit: 32))
        #expect(reason { try ClipReader(path: enough) } == nil)
        #expect(reason { try ClipReader(path: enough, limits: { var limits = ClipLimits(); limits.maxStreams = 8; return limits }()) }
                == .tooManyStreams(limit: 8))
        do {
            _ = try ClipReader.info(path: tooMany)
            Issue.record("a clip of 33 streams was read")
        } catch {
            #expect("\(error)".contains("more than 32 streams"), "\(error)")
            #expect(!"\(error)".contains("Cannot allocate memory"), "\(error)")
        }
    }

    /// Where FFmpeg's error code is generic, what FFmpeg logged about the file is in the message.
    @Test func ffmpegsOwnCauseIsInTheMessage() throws {
        var data = try bytes("h264-30fps.mp4")
        // No 'moov' box: libavformat says "Invalid data found when processing input" and logs why.
        let at = try #require(data.indices.first { data[$0..<min($0 + 4, data.count)].elementsEqual("moov".utf8) })
        data.replaceSubrange(at..<at + 4, with: "xoov".utf8)
        guard case let .ffmpeg(call, _, message) = reason({ try ClipReader(bytes: data, name: "no-moov.mp4") }) else {
            Issue.record("a clip without its moov box was read")
            return
        }
        #expect(call == "avformat_open_input")
        #expect(message.contains("moov atom not found"), "\(message)")
    }

    @Test func anUnknownCodecIsRefusedByName() throws {
        var data = try bytes("h264-30fps.mp4")
        // The sample entry's codec 'avc1' becomes 'xxxx', which no decoder reads.
        let at = try #require(data.indices.first { data[$0..<min($0 + 4, data.count)].elementsEqual("avc1".utf8) && $0 > 40 })
        data.replaceSubrange(at..<at + 4, with: "xxxx".utf8)
        let refused = reason { try ClipReader(bytes: data, name: "xxxx.mp4") }
        #expect(refused == .unsupportedCodec("none"), "\(String(describing: refused))")
    }

    @Test func aTruncatedClipGivesTheFramesItHasThenEnds() throws {
        let reader = try ClipReader(path: ClipTestFiles.path("bad-truncated.mp4"))
        var count = 0
        while try reader.nextFrame(width: 32, height: 24) != nil { count += 1 }
        #expect(count > 0 && count < 60)
        try reader.rewind()
        #expect(try reader.nextFrame(width: 32, height: 24)?.index == 0)
    }

    @Test func everyCutOfAClipIsRefusedOrReadWithoutACrash() throws {
        let data = try bytes("hevc.mp4")
        let started = Date()
        for length in stride(from: 0, to: data.count, by: 509) {
            guard let reader = try? ClipReader(bytes: Array(data.prefix(length)), name: "cut.mp4") else { continue }
            while (try? reader.nextFrame(width: 16, height: 12)) ?? nil != nil {}
        }
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func aFIFOOrAFolderIsNotOpened() throws {
        let folder = NSTemporaryDirectory() + "vitrine-clip-fifo-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/clip.mp4"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Would block forever if it were opened for reading without O_NONBLOCK.
        guard case .unreadable = reason({ try ClipReader(path: fifo) }) else {
            Issue.record("a FIFO was read")
            return
        }
        guard case .unreadable = reason({ try ClipReader(path: folder) }) else {
            Issue.record("a folder was read")
            return
        }
    }
}
