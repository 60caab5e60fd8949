import Blitter
import Colour
import Foundation
import Photos

/// `vitrine-bench colour`: what colour management costs on a decode worker. A 1920x1080 photo
/// converted from Display P3 to sRGB (the transform cached, as for every photo after the first
/// with a profile), and the check that finds an embedded sRGB profile needs nothing: the first
/// time (profile read, colorants and curves compared) and from the cache.
enum ColourBenchmark {
    static func run(arguments: [String]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let photos = root + "/Tests/PhotosTests/JPEGs"
        let p3 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photos + "/colour/display_p3.icc")))
        let monkey = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photos + "/variants/ljt_monkey12.jpg")))
        guard let sRGB2014 = JPEGDecoder.iccProfile(in: monkey) else { throw ColourError("no ICC profile in ljt_monkey12.jpg") }
        let samplePath = root + "/Samples/photos/03-dragonfly.jpg"
        let decoder = try JPEGDecoder()
        var picture = try decoder.decode(path: samplePath, to: ImageSize(width: 1440, height: 1080)).bitmap
            .resized(width: 1920, height: 1080)
        if let cpu = pinToOneCore() { print("Pinned to CPU \(cpu).") }

        let converter = try ColourConverter()
        let p3Description = ColourDescription.icc(p3)
        let conversion = Stopwatch.measure(minRuns: 20, maxRuns: 200, budget: 2) {
            _ = try? converter.convertToSRGB(&picture, from: p3Description)
        }
        // The thread's CPU time too: on a loaded machine the wall clock counts other processes' turns.
        let runs = 20, cpuStart = threadCPUTime()
        for _ in 0..<runs { _ = try? converter.convertToSRGB(&picture, from: p3Description) }
        let cpu = (threadCPUTime() - cpuStart) * 1000 / Double(runs)
        print(String(format: "colour: 1920x1080 Display P3 -> sRGB (lcms, cached transform): median %.2f ms, p99 %.2f ms (%d runs); CPU time %.2f ms",
                     conversion.median, conversion.p99, conversion.runs, cpu))

        // The first look at a profile: a converter of its own each time (made untimed).
        func firstLook(_ profile: [UInt8]) throws -> Double {
            var times: [Double] = []
            for _ in 0..<50 {
                let fresh = try ColourConverter()
                let start = Stopwatch.now()
                _ = try fresh.isSRGB(.icc(profile))
                times.append((Stopwatch.now() - start) * 1000)
            }
            return times.sorted()[times.count / 2]
        }
        print(String(format: "colour: Display P3 profile read and its transform made (the first photo with it): median %.3f ms",
                     try firstLook(p3)))
        guard try converter.isSRGB(.icc(sRGB2014)) else { throw ColourError("sRGB2014 not recognised as sRGB") }
        let sRGBDescription = ColourDescription.icc(sRGB2014)
        let cached = Stopwatch.measure(minRuns: 1000, maxRuns: 100_000, budget: 0.5) {
            _ = try? converter.isSRGB(sRGBDescription)
        }
        print(String(format: "colour: sRGB2014 profile (3 KB) recognised as sRGB: first look median %.3f ms, cached %.4f ms",
                     try firstLook(sRGB2014), cached.median))
    }
}

/// Seconds of CPU time the calling thread has used.
private func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
