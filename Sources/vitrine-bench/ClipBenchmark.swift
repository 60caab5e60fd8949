import Clips
import Foundation
import Glibc
import Linux

/// `vitrine-bench clip [--seconds N] [--runs N] [--markdown FILE]`: a 1080p30 H.264 clip made with
/// ffmpeg (testsrc2 with film-grain noise, x264 at 8 Mbit/s: a realistic phone bitrate) decoded by
/// `ClipReader` and converted to the screen's size (1920x1080, and 800x450: a 16:9 clip on an
/// 800x480 panel) per frame, against `ffmpeg -benchmark` decoding the same clip in the same run:
/// to `-f null` (decode only) and with the same scale to BGR0 rawvideo (decode + conversion); all
/// with one decoding thread, as the player decodes (`ClipVideoDecoder.defaultThreads`), so CPU
/// time is compared (wall time on a machine shared with other builds says more about them). Issue
/// #24's goal: decode + conversion within 1.25x of ffmpeg's decode. The runs alternate, medians.
/// Also the CPU a playing clip costs on a still screen: the reader's CPU time over the clip's length.
enum ClipBenchmark {
    struct Size {
        let width: Int
        let height: Int
        var label: String { "\(width)x\(height)" }
    }

    static let sizes = [Size(width: 1920, height: 1080), Size(width: 800, height: 450)]

    static func run(arguments: [String]) throws {
        let seconds = max(1, Int(option("--seconds", in: arguments) ?? "") ?? 4)
        let runs = max(1, Int(option("--runs", in: arguments) ?? "") ?? 3)
        let folder = NSTemporaryDirectory() + "vitrine-bench-clip-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clip = folder + "/clip-1080p30.mp4"
        let make = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=1920x1080:rate=30,noise=alls=12:allf=t", "-t", "\(seconds)", "-c:v", "libx264",
                    "-preset", "medium", "-b:v", "8M", "-maxrate", "10M", "-bufsize", "16M", "-pix_fmt", "yuv420p", clip]
        guard FormatBenchmark.runTool(make) != nil else { throw Failure("ffmpeg could not make the clip: \(make.joined(separator: " "))") }
        let info = try ClipReader.info(path: clip)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int) ?? 0
        print("clip: \(info.storedWidth)x\(info.storedHeight) \(info.codec) \(info.frameRate) fps, \(info.duration) s, "
              + "\(bytes * 8 / seconds / 1000) kbit/s")

        var ffmpegDecode: [Double] = []
        var ffmpegScaled: [[Double]] = sizes.map { _ in [] }
        var ours: [[Double]] = sizes.map { _ in [] }
        var frames = 0
        var decoderName = ""
        for _ in 0..<runs {
            ffmpegDecode.append(try ffmpegTime(["-i", clip, "-f", "null", "-"]))
            for (index, size) in sizes.enumerated() {
                ffmpegScaled[index].append(try ffmpegTime(["-i", clip, "-sws_flags", "bilinear", "-filter_threads", "1",
                                                          "-vf", "scale=\(size.width):\(size.height)", "-pix_fmt", "bgra",
                                                          "-f", "rawvideo", "-y", "/dev/null"]))
                let reader = try ClipReader(path: clip, preferHardware: false)
                decoderName = reader.decoderName
                let start = cpuSeconds()
                var count = 0
                while try reader.nextFrame(width: size.width, height: size.height) != nil { count += 1 }
                ours[index].append(cpuSeconds() - start)
                frames = count
            }
        }
        guard frames > 0 else { throw Failure("no frame decoded") }
        func perFrame(_ samples: [Double]) -> Double { FormatBenchmark.median(samples) * 1000 / Double(frames) }
        let decodeMs = perFrame(ffmpegDecode)
        var lines = ["| screen size | ffmpeg decode CPU ms/frame | ffmpeg decode + scale | Vitrine decode + conversion "
                     + "| ratio to ffmpeg's decode | goal | ratio to ffmpeg's decode + scale | CPU at 30 fps |",
                     "|---|---:|---:|---:|---:|---|---:|---:|"]
        for (index, size) in sizes.enumerated() {
            let scaledMs = perFrame(ffmpegScaled[index]), oursMs = perFrame(ours[index])
            let ratio = oursMs / decodeMs
            let cpu = FormatBenchmark.median(ours[index]) / info.duration * 100
            lines.append("| \(size.label) | \(f2(decodeMs)) | \(f2(scaledMs)) | \(f2(oursMs)) | \(f2(ratio))x | "
                         + "<= 1.25x: \(ratio <= 1.25 ? "met" : "MISSED") | \(f2(oursMs / scaledMs))x | \(Int(cpu.rounded()))% of a core |")
        }
        // The whole path, as `run` plays it: the clip's folder holds nothing else.
        let playing = try ClipPlayingCost.measure(folder: folder, screen: (1920, 1080), seconds: Double(max(seconds, 4)))
        let playingLine = "Playing on a still 1920x1080 screen, the whole path (`Viewer`: the player's worker, its ring, "
            + "the renderer, the changed rows copied as into the dumb buffer; sampled at 60 Hz in real time for "
            + "\(max(seconds, 4)) s after the opening): **\(Int(playing.cpuPercent.rounded()))% of a core** of the process's "
            + "CPU time, \(playing.framesDrawn) frames drawn, \(playing.framesShown) clip frames shown, "
            + "\(playing.framesDropped) dropped, decoder \(playing.decoder).\n\n"
            + dragLine(playing.dragFrameMs)
        let table = lines.joined(separator: "\n") + "\n\n" + playingLine
        print(table)
        if let markdown = option("--markdown", in: arguments) {
            let date = ISO8601DateFormatter().string(from: Date())
            let text = "## Clips against ffmpeg\n\n"
                + "Written by `vitrine-bench clip --markdown docs/benchmark.md` (release build), \(date). "
                + "The clip: ffmpeg's testsrc2 with temporal noise, 1920x1080 at 30 fps, \(seconds) s (\(frames) frames), "
                + "H.264 High by x264 -preset medium at 8 Mbit/s (\(bytes * 8 / seconds / 1000) kbit/s). Vitrine: `ClipReader` "
                + "(decoder \(decoderName), one thread) and its libswscale conversion (bilinear) to XRGB8888 at the screen size, "
                + "every frame, its CPU time (getrusage: the decode runs on one thread). ffmpeg 5.1 with `-benchmark -threads 1`, "
                + "its CPU time (utime + stime; the process start and probing included): "
                + "decoding to `-f null`, and decoding with `-vf scale=W:H -pix_fmt bgra -f rawvideo` (bilinear, one filter thread). "
                + "\(runs) runs, alternating; medians per frame. CPU at 30 fps: Vitrine's CPU time over the clip's length, "
                + "what a playing clip costs on a still screen (one core = 100%).\n\n"
                + table
            try MarkdownSections.write("clip", text: text, to: markdown)
            print("written to \(markdown)")
        }
    }

    /// ffmpeg's own CPU time (`-benchmark`'s utime + stime) for one run of `arguments`, in seconds.
    static func ffmpegTime(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-nostats", "-benchmark", "-threads", "1"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func value(_ name: String) -> Double? {
            output.range(of: name + "=").flatMap { Double(output[$0.upperBound...].prefix { $0.isNumber || $0 == "." }) }
        }
        guard process.terminationStatus == 0, let user = value("utime"), let system = value("stime") else {
            throw Failure("ffmpeg \(arguments.joined(separator: " ")) failed: \(output.suffix(300))")
        }
        return user + system
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// The frames of a dismiss drag over the playing clip, against the 60 Hz budget.
    static func dragLine(_ ms: [Double]) -> String {
        guard !ms.isEmpty else { return "The dismiss drag over the playing clip drew no frame.\n" }
        let sorted = ms.sorted()
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))] }
        let over = ms.filter { $0 > 1000.0 / 60 }.count
        return "A dismiss drag over the same playing clip (1 s, held down; real time, the player decoding beside it): "
            + "\(ms.count) frames, sample + draw + row copy p50 \(f2(at(0.5))) ms, p99 \(f2(at(0.99))) ms, "
            + "max \(f2(sorted.last ?? 0)) ms; \(over) over the 16.7 ms of a 60 Hz frame.\n"
    }

    static func f2(_ value: Double) -> String { String(format: "%.2f", value) }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

