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
        print(String(format: "colour: 1920x1080 Display P3 -> sRGB (lcms, cached transform): median %.2f ms, p99 %.2f ms (%d runs)",
                     conversion.median, conversion.p99, conversion.runs))

        // The first look at an sRGB profile: a converter of its own each time (made untimed).
        var firstLooks: [Double] = []
        for _ in 0..<50 {
            let fresh = try ColourConverter()
            let start = Stopwatch.now()
            guard try fresh.isSRGB(.icc(sRGB2014)) else { throw ColourError("sRGB2014 not recognised") }
            firstLooks.append((Stopwatch.now() - start) * 1000)
        }
        firstLooks.sort()
        let sRGBDescription = ColourDescription.icc(sRGB2014)
        let cached = Stopwatch.measure(minRuns: 1000, maxRuns: 100_000, budget: 0.5) {
            _ = try? converter.isSRGB(sRGBDescription)
        }
        print(String(format: "colour: sRGB2014 profile (3 KB) recognised as sRGB: first look median %.3f ms, cached %.4f ms",
                     firstLooks[firstLooks.count / 2], cached.median))
    }
}
