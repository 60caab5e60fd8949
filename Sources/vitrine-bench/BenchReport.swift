import CPixman
import Foundation
import Photos

/// docs/benchmark.md: the machine, the date, how the numbers were taken and the table.
struct BenchReport {
    let rows: [Row]
    let cpu: Int?
    let photo: String
    let header: JPEGHeader
    let frames: [String]
    /// The slideshow rows' frames and summary (`SlideshowBenchmark`).
    var slideshow: [String] = []

    var markdown: String {
        var lines = [
            "# Benchmark",
            "",
            "Written by `scripts/bench --markdown docs/benchmark.md` (`vitrine-bench`, release build).",
            "",
            "- Date: \(Self.date())",
            "- Machine: \(Self.cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + "\(Self.kernel()); pixman \(String(cString: pixman_version_string()))",
            "- " + (cpu.map { "Pinned to CPU \($0) with sched_setaffinity: ours and pixman both on one core." }
                ?? "Not pinned (sched_setaffinity failed)."),
            "- Each case: 3 warm-up runs, then 20 to 200 runs within about 2 s, ours and pixman's",
            "  alternating (so that load from other processes weighs on both alike), each timed run",
            "  right after an untimed one of the same operation (so that neither starts from a cache",
            "  full of the other's 8 MB pictures); median and p99 in ms. All rows are timed on the",
            "  same pixels: pixman draws into the bitmap the blitter draws into, from the same sources,",
            "  so both meet the same cache and the same placement in memory (with pictures of its own,",
            "  the two sides' 32 MB fill this machine's L3 and the memory-bound rows measured where the",
            "  buffers fell: copy moved between 0.91x and 1.07x from run to run). Large pictures are",
            "  allocated as the kiosk allocates them (`ProcessHeap`: each one mapped by itself).",
            "  On a shared machine absolute times move between runs (p99 shows it); the ratios hold",
            "  better.",
            "  `ratio` is our median over pixman's; `max diff` is the largest per-channel difference",
            "  between the two outputs over the whole 1920x1080 target (0-255). For the scaled copies,",
            "  `exact` gives ours' and pixman's largest difference from `drawScaledReference` (per",
            "  channel in Double at the same sample positions and weights): the blitter rounds, pixman",
            "  truncates.",
            "",
            "| Case | ours median ms | ours p99 ms | pixman median ms | ratio | max diff | goal | | exact: ours / pixman |",
            "|---|---:|---:|---:|---:|---:|---|---|---:|",
        ]
        for row in rows {
            let cells = row.cells(miss: "**miss**")
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "## What each row does",
            "",
            "- Blit rows run the same operation through the blitter and through pixman on a 1920x1080",
            "  x8r8g8b8 image: `pixman_fill` for fill; `PIXMAN_OP_SRC` composite for copy and scaled",
            "  copies; `PIXMAN_OP_OVER` of black at alpha 0.6 as one translucent solid (its",
            "  `over_n_8888` fast path) for the black blend, through a solid mask of 0.6 for the",
            "  image's. Scaled copies use `PIXMAN_FILTER_BILINEAR` with a 16.16 transform for the same",
            "  source rect and write the same destination pixels, with `PIXMAN_REPEAT_PAD` (the",
            "  blitter clamps to the edge; the 150 % row gives pixman a view of the crop, so that it",
            "  clamps there too). Both step the sample positions in 16.16 fixed point and weigh",
            "  neighbours in whole 1/128ths; the blitter rounds the result where pixman truncates it,",
            "  hence a difference of 1 or 2.",
            "- The 12 MP aspect-fill row draws the photo from its mip chain; pixman gets the same mip",
            "  level and crop (without it pixman's bilinear would alias, and it would not be the same",
            "  picture). The crop clamps at its own edges in the blitter and at the image's in pixman.",
            "- Frame rows: `Renderer.render` with realistic `SceneFrame`s (4 columns of \(Int(grid.cellSize)) px cells",
            "  at the default 4 px spacing, thumbnails of the sample photos): the opening half-way",
            "  (from `Scene.open`), a dismiss drag at p = 0.5 (alpha 0.5, scale 0.84), a pager swipe",
            "  with two pages half on screen at a fractional offset, and the grid scrolled by 0.37 of a",
            "  row. pixman does the naive full composite of the same picture: for the transitions it",
            "  copies a pre-drawn grid layer (the renderer caches one too), lays black at the alpha",
            "  OVER it as one translucent solid and draws the photo bilinear; for the swipe it fills",
            "  black and draws the pages; for the scroll it fills the background and draws every",
            "  cell. The frame is the same one each run, so the renderer's grid layer is reused as in",
            "  a real transition.",
            "  Timed as the blit rows are: pixman draws into the frame the renderer draws into and",
            "  reads the same thumbnails and screen images; each side keeps its own grid layer. (With",
            "  a frame and pictures of its own, pixman's 20 MB pushed the renderer's out of the cache",
            "  between runs: the opening half-way measured 1.15-1.36 ms there, 0.9 ms alone.)",
            "  The renderer puts a page shown at its image's own size on whole pixels (a row copy),",
            "  pixman draws it at the fractional offset: hence the swipe's large `max diff`, a",
            "  sub-pixel shift of the same picture.",
            "- The frames drawn:",
        ] + frames.map { "  - " + $0 } + [
            "- JPEG rows: `JPEGDecoder.decode` of \((photo as NSString).lastPathComponent) "
                + "(\(header.storedSize.width)x\(header.storedSize.height), a progressive JPEG from the samples)",
            "  to its size at TurboJPEG's scale 1, 1/2, 1/4 and 1/8; no pixman equivalent.",
        ] + SlideshowBenchmark.explanation(slideshow)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func date() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm zzz"
        return formatter.string(from: Date())
    }

    private static func cpuModel() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown CPU"
    }

    private static func kernel() -> String {
        let release = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "?"
        return "Linux " + release.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
