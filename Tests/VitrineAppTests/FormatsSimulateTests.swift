import Blitter
import Foundation
import TestSupport
import Testing

/// SPEC §11 through the command line: a folder of every still format, as an integrator drops
/// them in (a phone's HEIC, an AVIF, a WebP, PNGs, one of them named .jpg), shown by `vitrine
/// simulate` in one grid; a file that is no image under a photo's name is the one warning.
@Suite struct FormatsSimulateTests {
    static let formats = TestPaths.root.appendingPathComponent("Tests/PhotosTests/Formats").path

    @Test func everyFormatShowsInTheGridAndOnlyTheNonImageIsSkipped() throws {
        let folder = try TemporaryDirectory("formats")
        defer { folder.remove() }
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let files = [
            ("a.jpg", TestPaths.samplePhotos + "/01-lakeside.jpg"),
            ("b.heic", Self.formats + "/heic/phf_arrow.heic"),  // an iPhone 8 Plus grid of 48 tiles, irot 270
            ("c.avif", Self.formats + "/avif/linku_kimono.rotate90.avif"),
            ("d.webp", Self.formats + "/webp/pil_flower2.webp"),
            ("e.png", Self.formats + "/png/pil_exif.png"),
            ("f.jpg", Self.formats + "/png/pil_xmp_tags_orientation.png"),  // a PNG under a JPEG's name
        ]
        for (name, source) in files {
            try FileManager.default.copyItem(atPath: source, toPath: photos + "/" + name)
        }
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: photos + "/g.heic"))

        let result = try ProcessResult.run(["simulate", "--size", "640x480", "--photos", photos,
                                            "--snapshot", "0.1", "--out", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let skips = result.stderr.split(separator: "\n").filter { $0.contains("Skipping photo") }
        #expect(skips.count == 1, "\(result.stderr)")
        #expect(skips.first?.contains("g.heic") == true && skips.first?.contains("not an image format") == true)

        // The default grid: 4 columns, 4 px spacing, square cells. Every cell holds its photo (no
        // placeholder grey, no black), and no two show the same picture.
        let snapshot = try PNGTestDecoder.decode(Array(Data(contentsOf: URL(fileURLWithPath: folder.file("snapshot-0.100.png")))))
        let cell = (640 - 5 * 4) / 4
        var means: [[Int]] = []
        for index in files.indices {
            let x0 = 4 + (index % 4) * (cell + 4), y0 = 4 + (index / 4) * (cell + 4)
            var sum = [0, 0, 0], count = 0, placeholder = 0
            for y in stride(from: y0 + 10, to: y0 + cell - 10, by: 3) {
                for x in stride(from: x0 + 10, to: x0 + cell - 10, by: 3) {
                    let pixel = snapshot[x, y] & 0xFF_FFFF
                    if pixel == 0x20_20_20 { placeholder += 1 }
                    sum[0] += Int(pixel >> 16 & 0xFF); sum[1] += Int(pixel >> 8 & 0xFF); sum[2] += Int(pixel & 0xFF)
                    count += 1
                }
            }
            #expect(placeholder < count / 10, "cell \(index) (\(files[index].0)) shows the placeholder")
            let mean = sum.map { $0 / count }
            #expect(mean.reduce(0, +) > 30, "cell \(index) (\(files[index].0)) is black: \(mean)")
            means.append(mean)
        }
        for a in means.indices {
            for b in means.indices where b > a {
                #expect(zip(means[a], means[b]).map { abs($0 - $1) }.max()! > 2, "cells \(a) and \(b) look alike: \(means)")
            }
        }
    }
}
