import Blitter
import CPixman
import Config
import Foundation
import Geometry
import Linux
import Photos
import Scene
import Rendering

// vitrine-bench: the blitter and the renderer at 1920x1080 against pixman doing the same work, and
// JPEG decode of a 12 MP photo. Usage: vitrine-bench [--samples DIR] [--markdown FILE] [--quick]
// `vitrine-bench startup [options]`: start-up, disk thumbnail cache, memory and soak (StartupBenchmark).
// `vitrine-bench remote [options]`: the frame time with and without wrk on the remote server (RemoteBenchmark).
// `vitrine-bench mqtt [options]`: the frame time with and without a broker flooding commands (MQTTBenchmark).
// `vitrine-bench scan [--counts N,N,...]`: start-up time per photo for 1,000 to 100,000 photos (ScanBenchmark).
// `vitrine-bench remote-attack [options]`: /status latency under a slow-client attack (SlowClientBenchmark).
// `vitrine-bench formats [--source JPEG] [--runs N]`: each still format against its reference decoder (FormatBenchmark).
// `vitrine-bench clip [--seconds N] [--runs N]`: a 1080p30 H.264 clip's decode + conversion per frame against ffmpeg (ClipBenchmark).
// `vitrine-bench motion [--passes N] [--record FILE]`: continuous gestures' frames through `Viewer.draw` against pixman's naive composite (MotionBenchmark).
// `vitrine-bench colour`: a 1920x1080 picture converted from Display P3 to sRGB; an sRGB profile's no-op check (ColourBenchmark).

let modes: [String: ([String]) throws -> Void] = [
    "startup": { try StartupBenchmark.run(arguments: $0) },
    "remote": { try RemoteBenchmark.run(arguments: $0) },
    "mqtt": { try MQTTBenchmark.run(arguments: $0) },
    "scan": { try ScanBenchmark.run(arguments: $0) },
    "remote-attack": { try SlowClientBenchmark.run(arguments: $0) },
    "formats": { try FormatBenchmark.run(arguments: $0) },
    "colour": { try ColourBenchmark.run(arguments: $0) },
    "clip": { try ClipBenchmark.run(arguments: $0) },
    "motion": { try MotionBenchmark.run(arguments: $0) },
]
if let mode = CommandLine.arguments.dropFirst().first, let run = modes[mode] {
    do {
        try run(Array(CommandLine.arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("vitrine-bench: \(error)\n".utf8))
        exit(1)
    }
}

let arguments = CommandLine.arguments
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
let samples = option("--samples") ?? packageRoot + "/Samples/photos"
let quick = arguments.contains("--quick")
let budget = quick ? 0.2 : 1.0

// The kiosk's placement of large blocks (its decode queue sets it before the first picture): the
// pictures below are mapped as the kiosk's are, at one offset within a page.
if !ProcessHeap.mapLargeBlocks() { print("mallopt(M_MMAP_THRESHOLD) refused: pictures come from the heap") }
let cpu = pinToOneCore()
print(cpu.map { "Pinned to CPU \($0) (sched_setaffinity); one core for ours and pixman alike." }
      ?? "Could not pin to one CPU (sched_setaffinity failed); timings may move between cores.")

let width = 1920, height = 1080
let screen = PixelRect(x: 0, y: 0, width: width, height: height)
let settings = Settings()
let parameters = settings.scene
let decoder = try JPEGDecoder()
let samplePaths = try FileManager.default.contentsOfDirectory(atPath: samples)
    .filter { $0.lowercased().hasSuffix(".jpg") }.sorted().map { samples + "/" + $0 }
guard !samplePaths.isEmpty else { fatalError("no JPEGs in \(samples)") }
let bigPhotoPath = samples + "/03-dragonfly.jpg"
let bigPhotoBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bigPhotoPath)))
let bigPhoto = try decoder.decode(bytes: bigPhotoBytes, path: bigPhotoPath,
                                  to: try decoder.readHeader(path: bigPhotoPath).size).bitmap
let grid = GridView(parameters: parameters.grid, screenSize: Size(width: Double(width), height: Double(height)), photoCount: 0)
let cellSide = Int(grid.cellSize.rounded(.up))
print("Decoding \(samplePaths.count) sample photos (thumbnails for \(cellSide) px cells, screen images)...")
let photos = try BenchPhotos(paths: samplePaths, count: 40, screen: ImageSize(width: width, height: height),
                             cellSide: cellSide, decoder: decoder)
// A full-screen picture to scale and blend: the big photo at the screen's size.
let frameImage = bigPhoto.resized(width: width, height: height)

// MARK: - Cases

struct Row {
    var name: String
    var ours: Timing
    var pixman: Timing?
    var maxDifference: Int?
    var goal: Double?
    /// For scaled copies: ours and pixman's largest difference from the exact (Double) result.
    var exactDifferences: (ours: Int, pixman: Int)?
    /// Frame rows are judged on time only (their pictures are compared in RendererTests).
    var isFrame: Bool { name.hasPrefix("frame:") }

    /// The table's cells: name, medians and p99, ratio, max diff, goal, verdict (`miss` when the
    /// goal is missed), exact differences.
    func cells(miss: String) -> [String] {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "" }
        let ratio = pixman.map { ours.median / $0.median }
        var verdict = ""
        if let ratio, let goal {
            verdict = ratio <= goal && (isFrame || (maxDifference ?? 0) <= 2) ? "ok" : miss
        }
        return [name, ms(ours.median), ms(ours.p99), ms(pixman?.median),
                ratio.map { String(format: "%.2fx", $0) } ?? "", maxDifference.map(String.init) ?? "",
                goal.map { String(format: "<= %.1fx", $0) } ?? "", verdict,
                exactDifferences.map { "\($0.ours) / \($0.pixman)" } ?? ""]
    }
}

final class Canvas {
    var bitmap: Bitmap
    init(_ bitmap: Bitmap) { self.bitmap = bitmap }
}

func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
    var worst = 0
    for y in 0..<min(a.height, b.height) {
        for x in 0..<min(a.width, b.width) {
            let p = a[x, y], q = b[x, y]
            for shift: UInt32 in [0, 8, 16] {
                worst = max(worst, abs(Int(p >> shift & 0xFF) - Int(q >> shift & 0xFF)))
            }
        }
    }
    return worst
}

var rows: [Row] = []
func printRow(_ row: Row) { print(tableLine(row.cells(miss: "MISS"))) }
let columnWidths = [38, 9, 9, 10, 8, 8, 9, 5, 13]
func tableLine(_ cells: [String]) -> String {
    zip(cells, columnWidths).enumerated().map { i, pair in
        let (text, width) = pair
        let pad = String(repeating: " ", count: max(0, width - text.count))
        return i == 0 ? text + pad : pad + text
    }.joined(separator: "  ")
}

/// Times `ours` and `pixman` from the same starting picture and compares one run of each.
/// `--only WORD`: just the cases whose name contains it (for quick looks while tuning).
let only = option("--only")
func selected(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

/// `ours` drawing into `canvas` and `pixman` drawing into the same pixels, timed in alternation.
/// With a target and sources of its own, the two sides' pictures (32 MB, this machine's whole L3)
/// compete for the cache, and the memory-bound rows measured where the buffers fell rather than
/// the code: copy went from 0.91x to 1.07x between runs. `canvas` must have been drawn into once
/// (so that it owns its pixels and draws in place).
func measureOnSharedPixels(_ name: String, canvas: Canvas, ours: () -> Void,
                           pixman: (PixmanImage) -> Void) -> (Timing, Timing) {
    let shared = PixmanImage(sharing: canvas)
    let timings = Stopwatch.measurePair(budget: 2 * budget, ours, { pixman(shared) })
    precondition(shared.isStillShared, "\(name): the canvas's pixels moved while pixman drew into them")
    return timings
}

func blitCase(_ name: String, start: Bitmap, goal: Double? = 1.0,
              ours: @escaping (inout Bitmap) -> Void, pixman: @escaping (PixmanImage) -> Void,
              exact: ((inout Bitmap) -> Void)? = nil) {
    guard selected(name) else { return }
    let canvas = Canvas(start)
    ours(&canvas.bitmap)
    let reference = PixmanImage(start)
    pixman(reference)
    let difference = maxDifference(canvas.bitmap, reference.bitmap)
    var exactDifferences: (Int, Int)?
    if let exact {
        var exactResult = start
        exact(&exactResult)
        exactDifferences = (maxDifference(canvas.bitmap, exactResult), maxDifference(reference.bitmap, exactResult))
    }
    let (ourTiming, pixmanTiming) = measureOnSharedPixels(name, canvas: canvas, ours: { ours(&canvas.bitmap) }, pixman: pixman)
    let row = Row(name: name, ours: ourTiming, pixman: pixmanTiming, maxDifference: difference, goal: goal,
                  exactDifferences: exactDifferences)
    rows.append(row)
    printRow(row)
}

print("")
print(tableLine(["1920x1080 XRGB8888", "ours ms", "p99 ms", "pixman ms", "ratio", "max diff", "goal", "",
                 "exact: ours/px"]))
let gray = Bitmap(width: width, height: height, color: 0x40_50_60)
let frameSource = PixmanImage(sharing: frameImage)
let sourceRect = Rect(x: 0, y: 0, width: Double(width), height: Double(height))

blitCase("fill", start: gray, ours: { $0.fill(screen, color: 0x11_22_33) },
         pixman: { $0.fill(screen, color: 0x11_22_33) })
blitCase("copy", start: gray, ours: { $0.copy(from: frameImage, to: (0, 0)) },
         pixman: { frameSource.clearScaling(); $0.composite(PIXMAN_OP_SRC, frameSource, rect: screen) })
// Black at 0.6 as one translucent solid (pixman's over_n_8888 fast path; through a solid mask it
// takes its general path).
let black60 = PixmanSolid(color: 0, alpha: 0.6), mask60 = PixmanSolid(alpha: 0.6)
blitCase("blend black at alpha 0.6", start: frameImage, ours: { $0.blend(screen, color: Pixel.black, alpha: 0.6) },
         pixman: { $0.composite(PIXMAN_OP_OVER, black60.image, rect: screen) })
blitCase("blend image at alpha 0.6", start: gray, ours: { $0.blend(from: frameImage, to: (0, 0), alpha: 0.6) },
         pixman: { frameSource.clearScaling(); $0.composite(PIXMAN_OP_OVER, frameSource, mask: mask60.image, rect: screen) })
for (label, scale) in [("bilinear 75%", 0.75), ("bilinear 50%", 0.5)] {
    let destination = Rect(x: 0, y: 0, width: Double(width) * scale, height: Double(height) * scale)
    blitCase(label, start: gray, ours: { $0.drawScaled(frameImage, sourceRect: sourceRect, into: destination, clip: screen) },
             pixman: {
                 frameSource.setScaling(sourceRect: sourceRect, destination: destination)
                 $0.composite(PIXMAN_OP_SRC, frameSource, rect: destination.centredPixels)
             },
             exact: { $0.drawScaledReference(frameImage, sourceRect: sourceRect, into: destination, clip: screen) })
}
for (label, scale) in [("bilinear 1.001 (full frame)", 1.001), ("bilinear 150% (zoomed in)", 1.5)] {
    // Enlarged about the centre (1.001: every pixel a real interpolation; 1.5: a photo zoomed
    // in). pixman gets a view of the pixels the crop touches, so that it clamps at the crop's
    // edges as the blitter does (PAD) instead of reading the pixels around it.
    let cropWidth = Double(width) / scale, cropHeight = Double(height) / scale
    let source = Rect(x: (Double(width) - cropWidth) / 2, y: (Double(height) - cropHeight) / 2,
                      width: cropWidth, height: cropHeight)
    let destination = screen.rect
    let (cropImage, cropRect) = frameSource.view(touchedBy: source)
    blitCase(label, start: gray,
             ours: { $0.drawScaled(frameImage, sourceRect: source, into: destination, clip: screen) },
             pixman: {
                 cropImage.setScaling(sourceRect: cropRect, destination: destination)
                 $0.composite(PIXMAN_OP_SRC, cropImage, rect: screen)
             },
             exact: { $0.drawScaledReference(frameImage, sourceRect: source, into: destination, clip: screen) })
}
do {
    // A 12 MP photo into a 320 px cell, from its mip chain; pixman gets the same mip level.
    let chain = MipChain(bigPhoto)
    let cell = Rect(x: 100.25, y: 200.5, width: 320, height: 320)
    let (level, levelCrop) = mipLevel(chain, sourceRect: aspectFillCrop(of: chain.size, in: cell), into: cell)
    let (levelImage, viewCrop) = PixmanImage(sharing: chain.levels[level]).view(touchedBy: levelCrop)
    blitCase("aspect-fill 12 MP into 320 px cell", start: gray,
             ours: { $0.drawAspectFill(chain, in: cell, clip: screen) },
             pixman: {
                 levelImage.setScaling(sourceRect: viewCrop, destination: cell)
                 $0.composite(PIXMAN_OP_SRC, levelImage, rect: cell.centredPixels)
             },
             exact: { $0.drawScaledReference(chain.levels[level], sourceRect: levelCrop, into: cell, clip: screen) })
}

// MARK: - Frames

let frameGoal = 0.8
let scene = Scene(parameters: parameters, screenSize: Size(width: Double(width), height: Double(height)),
                  photoSizes: photos.sizes)
let openedIndex = 5
scene.open(openedIndex, at: 0)
// The opening where the background reaches 0.6 (the transition frame of the issue: grid, black
// at 0.6 over it, the photo scaled), and half-way through, where it is already opaque.
var openingTime = 0.0
while scene.frame(at: openingTime).backgroundAlpha < 0.6 && openingTime < parameters.open.duration {
    openingTime += 0.002
}
let openingAt60 = scene.frame(at: openingTime)
let openingFrame = scene.frame(at: parameters.open.duration / 2)

let fitRect = screen.rect.aspectFit(photos.sizes[openedIndex])
let dismissFrame: SceneFrame = {
    // Finger from the centre 100 px down (p = 0.5 with max_drag 200) and 30 px right.
    let progress = 0.5, scale = 1 - (1 - parameters.dismiss.minScale) * progress
    let start = Point(x: 960, y: 540), finger = Point(x: 990, y: 640)
    let rect = Rect(x: finger.x + (fitRect.x - start.x) * scale, y: finger.y + (fitRect.y - start.y) * scale,
                    width: fitRect.width * scale, height: fitRect.height * scale)
    var frame = openingFrame
    frame.mode = .dismissing
    frame.backgroundAlpha = 1 - progress
    frame.drawsGrid = true
    frame.movingPhoto = PhotoPlacement(index: openedIndex, rect: rect)
    return frame
}()
let swipeFrame: SceneFrame = {
    // Half-way from photo 5 to photo 6, at a fractional offset.
    let pageWidth = Double(width) + parameters.pager.pageSpacing, offset = -pageWidth / 2 - 0.37
    let next = screen.rect.aspectFit(photos.sizes[openedIndex + 1])
    var frame = openingFrame
    frame.mode = .pager
    frame.drawsGrid = false
    frame.backgroundAlpha = 1
    frame.movingPhoto = nil
    frame.pages = [PhotoPlacement(index: openedIndex, rect: fitRect.offsetBy(dx: offset, dy: 0)),
                   PhotoPlacement(index: openedIndex + 1, rect: next.offsetBy(dx: pageWidth + offset, dy: 0))]
    return frame
}()
let scrollFrame: SceneFrame = {
    // Scrolled by 0.37 of a row: each cell at a fractional y.
    let step = grid.cellSize + grid.spacing, scroll = 0.37 * step
    var cells: [GridCell] = []
    for index in 0..<photos.sizes.count {
        let row = index / grid.columns, column = index % grid.columns
        let rect = Rect(x: grid.spacing + Double(column) * step, y: grid.spacing + Double(row) * step - scroll,
                        width: grid.cellSize, height: grid.cellSize)
        if rect.maxY > 0, rect.minY < Double(height) { cells.append(GridCell(index: index, rect: rect)) }
    }
    return SceneFrame(time: 0, mode: .grid, currentIndex: nil, gridScroll: scroll, drawsGrid: true, gridCells: cells,
                      hiddenIndex: nil, backgroundAlpha: 0, pages: [], movingPhoto: nil)
}()

func frameCase(_ name: String, _ frame: SceneFrame, goal: Double?, pixmanCopiesGrid: Bool) {
    guard selected(name) else { return }
    let renderer = Renderer(grid: settings.grid)
    let canvas = Canvas(Bitmap(width: width, height: height))
    renderer.render(frame, images: photos, into: &canvas.bitmap)
    let naive = NaiveComposite(photos: photos, grid: settings.grid, width: width, height: height)
    var gridLayer: PixmanImage?
    if pixmanCopiesGrid {
        let layer = PixmanImage(width: width, height: height)
        naive.drawGrid(frame, into: layer)
        gridLayer = layer
    }
    let reference = PixmanImage(width: width, height: height)
    naive.render(frame, gridLayer: gridLayer, into: reference)
    let difference = maxDifference(canvas.bitmap, reference.bitmap)
    // Each side keeps its own grid layer.
    let (ourTiming, pixmanTiming) = measureOnSharedPixels(name, canvas: canvas, ours: {
        // The whole frame: pixman drew into these pixels since.
        renderer.forgetLastPicture()
        renderer.render(frame, images: photos, into: &canvas.bitmap)
    }, pixman: { naive.render(frame, gridLayer: gridLayer, into: $0) })
    let row = Row(name: name, ours: ourTiming, pixman: pixmanTiming, maxDifference: difference, goal: goal)
    rows.append(row)
    printRow(row)
}

func describe(_ name: String, _ frame: SceneFrame) -> String {
    func rect(_ r: Rect) -> String { String(format: "%.1f,%.1f %.1fx%.1f", r.x, r.y, r.width, r.height) }
    var parts = ["\(name): \(frame.mode.rawValue)", "\(frame.gridCells.count) cells",
                 String(format: "background alpha %.2f", frame.backgroundAlpha), frame.drawsGrid ? "grid drawn" : "no grid"]
    parts += frame.pages.map { "page \($0.index) at \(rect($0.rect))" }
    if let moving = frame.movingPhoto { parts.append("photo \(moving.index) at \(rect(moving.rect))") }
    return parts.joined(separator: ", ")
}
var frameDescriptions: [String] = []
for (name, frame) in [("opening at alpha 0.6", openingAt60), ("opening half-way", openingFrame), ("dismiss drag", dismissFrame), ("pager swipe", swipeFrame),
                      ("grid scroll", scrollFrame)] {
    frameDescriptions.append(describe(name, frame))
}

frameCase(String(format: "frame: opening, alpha 0.6 (t = %.3f s)", openingTime), openingAt60, goal: frameGoal,
          pixmanCopiesGrid: true)
frameCase(String(format: "frame: opening, half-way (t = %.2f s)", parameters.open.duration / 2), openingFrame,
          goal: frameGoal, pixmanCopiesGrid: true)
frameCase("frame: dismiss drag, p = 0.5", dismissFrame, goal: frameGoal, pixmanCopiesGrid: true)
frameCase("frame: pager swipe, two pages", swipeFrame, goal: frameGoal, pixmanCopiesGrid: false)
frameCase("frame: grid scrolled 0.37 row", scrollFrame, goal: nil, pixmanCopiesGrid: false)

// MARK: - Slideshow (SlideshowBenchmark)

let slideshowLines = SlideshowBenchmark.run(photos: photos, settings: settings, width: width, height: height,
                                            selected: selected) { row in
    rows.append(row)
    printRow(row)
}

// MARK: - Captions

var captionLines: [String] = []
if selected("caption") {
    let result = CaptionBenchmark.run(photos: photos, settings: settings, index: openedIndex, width: width, height: height,
                                      moving: [("pager swipe", swipeFrame), ("dismiss drag", dismissFrame)], budget: budget)
    for row in result.rows {
        rows.append(row)
        printRow(row)
    }
    captionLines = result.summary
    for line in captionLines { print(line) }
}

// MARK: - JPEG decode

let header = try decoder.readHeader(bytes: bigPhotoBytes, path: bigPhotoPath)
let megapixels = Double(header.storedSize.pixelCount) / 1e6
for denominator in [1, 2, 4, 8] where selected("JPEG") {
    let target = ScalingFactor(num: 1, denom: denominator).scale(header.size)
    let timing = Stopwatch.measure(minRuns: quick ? 2 : 5, maxRuns: 50, budget: quick ? 0.5 : 2, warmUp: 1) {
        _ = try? decoder.decode(bytes: bigPhotoBytes, path: bigPhotoPath, to: target)
    }
    let row = Row(name: String(format: "JPEG %.1f MP at 1/%d (%dx%d)", megapixels, denominator, target.width, target.height),
                  ours: timing, pixman: nil, maxDifference: nil, goal: nil)
    rows.append(row)
    printRow(row)
}

print("")
for line in frameDescriptions + slideshowLines { print(line) }
if let path = option("--markdown") {
    let markdown = BenchReport(rows: rows, cpu: cpu, photo: bigPhotoPath, header: header,
                               frames: frameDescriptions + captionLines, slideshow: slideshowLines).markdown
    // The sections other modes own (`vitrine-bench formats`) stay.
    let kept = ((try? String(contentsOfFile: path, encoding: .utf8)).map(MarkdownSections.sections(in:)) ?? [])
        .map { "\n" + $0 + "\n" }.joined()
    try AtomicFile.write(Array((markdown + kept).utf8), to: path)
    print("\nWrote \(path)")
}
