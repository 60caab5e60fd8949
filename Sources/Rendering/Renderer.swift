import Blitter
import Config
import Geometry
import Photos
import Scene

/// Draws a `SceneFrame` into a bitmap the size of the screen, in SPEC §3's order: grid (or black),
/// black background at its alpha, pager pages, the moving photo. It knows nothing about modes:
/// everything it needs is in the frame.
///
/// The picture is always that of `renderDirectly` (every layer over the whole screen), but it is
/// drawn with less work: nothing is drawn under the photos that are opaque (alpha 1; under a
/// translucent one everything is drawn), the grid's gaps are filled instead of the whole screen,
/// and while something lies over the grid (a transition) the grid is drawn once into a cached
/// layer and each frame copies it, dimmed in the same pass. The caches are keyed by what their
/// pixels depend on, content versions included.
///
/// Captions (with a `CaptionPainter`) go over everything else, each with its page. A grid cell's
/// badge (a clip's duration, `PhotoImages.badge`) is part of the cell (`CellBadgePainter`).
///
/// In `slideshow` mode the pages are dissolved over black (`SceneFrame.pages`): translucent or
/// overlapping pages go through a `Dissolve`, which writes each pixel once; opaque pages side by
/// side are drawn as the pager's are.
///
/// `render` returns the rows that changed since the picture it drew last into the same bitmap
/// (`DrawnPicture`): the display writes only those. Drawing into the bitmap it drew into last (which
/// nothing else writes), it also leaves alone the background pixels that already hold this frame's
/// background (the same black, or the same grid layer at the same dim): only those the last frame
/// drew something over are drawn again. A photo dragged over a still background, or growing over
/// black, then costs its own pixels and the ones it uncovers, not the screen's.
public struct Renderer {
    public var grid: Settings.Grid
    public let captions: CaptionPainter?
    public let badges: CellBadgePainter
    private let gridLayer: GridLayerCache
    private let dissolve = Dissolve()
    private let last = LastPicture()

    /// The picture drawn last, and into which bitmap (its storage's address and size; not held,
    /// which would make the next frame's writes copy it).
    private final class LastPicture {
        var picture: DrawnPicture?
        var target: (address: UnsafeRawPointer?, width: Int, height: Int)?
        /// The background it was drawn on, and the areas where something was drawn over it: every
        /// other pixel of the target holds that background.
        var background: Background?
        var overBackground: [PixelRect] = []
    }

    /// A background the next frame can keep where nothing covered it: black, or the cached grid
    /// layer (`GridLayerCache.version`) with black at `dim` (256ths) over it. The plain grid drawn
    /// directly (a scroll) is none.
    private enum Background: Equatable {
        case black
        case dimmedGrid(layer: Int, dim: Int)
    }

    public init(grid: Settings.Grid, captions: CaptionPainter? = nil, badges: CellBadgePainter = CellBadgePainter()) {
        self.init(grid: grid, captions: captions, badges: badges, packsGridLayer: PackedBitmap.dimsFaster)
    }

    /// `packsGridLayer`: whether the frames over the grid read its layer packed (`GridLayerCache`;
    /// the tests draw both ways).
    init(grid: Settings.Grid, captions: CaptionPainter? = nil, badges: CellBadgePainter = CellBadgePainter(),
         packsGridLayer: Bool) {
        self.grid = grid
        self.captions = captions
        self.badges = badges
        gridLayer = GridLayerCache(packs: packsGridLayer)
    }

    /// The bitmap drawn into last was written by something else: the next frame is drawn whole
    /// and all its rows are reported (benchmarks that time the same frame against another drawer
    /// in the same pixels).
    public func forgetLastPicture() {
        last.picture = nil
        last.target = nil
        last.background = nil
        last.overBackground = []
    }

    /// Draws `frame` into `target`; returns the rows of `target` that differ from the picture
    /// drawn into it last (every row when that was not this renderer's last picture).
    @discardableResult
    public func render(_ frame: SceneFrame, images source: PhotoImages, into target: inout Bitmap) -> RowSet {
        let images = FrameImages(source)
        func identity(_ bitmap: Bitmap) -> (address: UnsafeRawPointer?, width: Int, height: Int) {
            (address: bitmap.pixels.withUnsafeBytes { $0.baseAddress }, width: bitmap.width, height: bitmap.height)
        }
        // The target still holds the last picture (a write that copies its storage copies that).
        let holdsLastPicture = last.target.map { $0 == identity(target) } ?? false
        // The pages where they are drawn, and whether they are dissolved: once for both uses.
        let pages = frame.pages.map { aligned($0, images: images) }
        let dissolved = dissolves(frame, pages: pages, images: images, screen: target.bounds)
        let picture = self.picture(of: frame, pages: pages, dissolved: dissolved, images: images, screen: target.bounds)
        let drawn = draw(frame, pages: pages, dissolved: dissolved, picture: picture, images: images, into: &target,
                         lastBackground: holdsLastPicture ? last : nil)
        let identity = identity(target)
        let sameTarget = last.target.map { $0 == identity } ?? false
        let changed = picture.changedRows(since: sameTarget ? last.picture : nil)
        last.picture = picture
        last.target = identity
        last.background = drawn.background
        last.overBackground = drawn.overBackground
        return changed
    }

    /// Draws the frame; `lastBackground`, when the target holds the last picture, says where its
    /// background may already be in place. Returns this frame's background and what lies over it.
    /// `pages`: the frame's, `aligned`; `dissolved`: `dissolves` of them; `picture`: the frame's.
    private func draw(_ frame: SceneFrame, pages: [PhotoPlacement], dissolved: Bool, picture: DrawnPicture,
                      images: PhotoImages, into target: inout Bitmap,
                      lastBackground: LastPicture?) -> (background: Background?, overBackground: [PixelRect]) {
        let screen = target.bounds
        if dissolved {
            gridLayer.clear()
            dissolve.draw(pages.map { dissolveLayer($0, images: images) }, into: &target, clip: screen)
            if let moving = frame.movingPhoto { drawPhoto(moving, images: images, into: &target) }
            var placed = frame
            placed.pages = pages
            drawCaptions(placed, images: images, into: &target)
            captions?.finishFrame()
            badges.finishFrame()
            // Every pixel written: the next frame keeps nothing of this background.
            return (nil, [])
        }
        let photos = pages + (frame.movingPhoto.map { [$0] } ?? [])
        let bands = captionBands(frame, pages: pages, images: images, screen: screen)
        let holes = photos.compactMap { coveredPixels($0, images: images, screen: screen) } + bands.values.map(\.rect)
        /// The pixels of `background` to draw: those no photo covers, and when the target already
        /// shows that background, only those of them the last frame drew something over.
        func uncovered(_ background: Background) -> [PixelRect] {
            guard let lastBackground, lastBackground.background == background else { return Self.area(screen, minus: holes) }
            return lastBackground.overBackground.flatMap { Self.area($0.intersection(screen), minus: holes) }
        }
        // The blitter's own weight for the background: 0 draws nothing, `opaque` covers the grid.
        let level = PixelMath.alphaWeight(frame.backgroundAlpha)
        let background: Background?
        if !frame.drawsGrid || level == PixelMath.opaque {
            gridLayer.clear()
            background = .black
            for rect in uncovered(.black) { target.fill(rect, color: Pixel.black) }
        } else if level == 0 && photos.isEmpty {
            // The plain grid (scrolling): drawn directly, it changes with every frame. Where the
            // target holds the last picture and this one is it scrolled by whole rows, those rows
            // move (a memmove) and only the rows scrolled in are drawn.
            gridLayer.clear()
            background = nil
            let thumbnails = frame.gridCells.map { images.thumbnail($0.index) }
            let labels = frame.gridCells.map { images.badge($0.index) }
            if let old = lastBackground?.picture, let dy = picture.scroll(from: old) {
                target.moveRows(by: dy)
                let scrolledIn = dy > 0 ? PixelRect(x: screen.minX, y: screen.minY, width: screen.width, height: dy)
                    : PixelRect(x: screen.minX, y: screen.maxY + dy, width: screen.width, height: -dy)
                drawGrid(frame, thumbnails: thumbnails, badges: labels, into: &target, clip: scrolledIn)
            } else {
                drawGrid(frame, thumbnails: thumbnails, badges: labels, into: &target)
            }
        } else {
            let layer = gridLayer.layer(for: frame, images: images, size: screen, grid: grid) { frame, thumbnails, badges, layer in
                drawGrid(frame, thumbnails: thumbnails, badges: badges, into: &layer)
            }
            let alpha = min(1, frame.backgroundAlpha)
            let dimmed = Background.dimmedGrid(layer: gridLayer.version, dim: PixelMath.alphaWeight(alpha))
            background = dimmed
            for rect in uncovered(dimmed) { layer.dim(rect, alpha: alpha, into: &target) }
        }
        for page in pages {
            if let band = bands[page.index] {
                // The photo above the caption's band, then the band drawn with it.
                let above = PixelRect(x: screen.minX, y: screen.minY, width: screen.width, height: band.rect.minY - screen.minY)
                drawPhoto(page, images: images, into: &target, clip: above)
                target.copy(from: band.band.bitmap, to: (band.rect.minX, band.rect.minY))
            } else {
                drawPhoto(page, images: images, into: &target)
            }
        }
        if let moving = frame.movingPhoto {
            drawPhoto(moving, images: images, into: &target)
        }
        var placed = frame
        placed.pages = pages
        let captionAreas = drawCaptions(placed, images: images, into: &target, except: Set(bands.keys))
        captions?.finishFrame()
        badges.finishFrame()
        let overBackground = photos.map { $0.rect.enclosingPixels.intersection(screen) } + bands.values.map(\.rect) + captionAreas
        return (background, overBackground.filter { !$0.isEmpty })
    }

    /// Whether the frame's pages are dissolved (slideshow mode) in a way the pager's drawing of
    /// them would not give: some translucent, or overlapping (or a grid showing, where the
    /// slideshow has black). Opaque pages side by side (a still slide, a portrait pair at rest)
    /// are the same picture either way, and take the page path.
    private func dissolves(_ frame: SceneFrame, pages: [PhotoPlacement], images: PhotoImages, screen: PixelRect) -> Bool {
        guard frame.mode == .slideshow else { return false }
        if frame.drawsGrid && PixelMath.alphaWeight(frame.backgroundAlpha) < PixelMath.opaque { return true }
        var covered: [PixelRect] = []
        for page in pages {
            guard let pixels = coveredPixels(page, images: images, screen: screen) else { return true }
            if covered.contains(where: { !$0.intersection(pixels).isEmpty }) { return true }
            covered.append(pixels)
        }
        return false
    }

    /// A page as the dissolve draws it: what `drawPhoto` would draw, at the page's alpha.
    private func dissolveLayer(_ page: PhotoPlacement, images: PhotoImages) -> DissolveLayer {
        switch source(of: page.index, images: images) {
        case .screenImage(let image): .image(image, in: page.rect, alpha: page.alpha)
        case .thumbnail(let thumbnail): .image(thumbnail, in: Self.thumbnailRect(thumbnail, in: page.rect), alpha: page.alpha)
        case .placeholder: .color(grid.placeholderColor, in: page.rect, alpha: page.alpha)
        }
    }

    /// The captions the frame shows (`CaptionPlacement`), over the photos; `except` the pages
    /// drawn with theirs. Returns the areas they may have written.
    @discardableResult
    private func drawCaptions(_ frame: SceneFrame, images: PhotoImages, into target: inout Bitmap,
                              except: Set<Int> = []) -> [PixelRect] {
        guard let captions else { return [] }
        var areas: [PixelRect] = []
        for placement in CaptionPlacement.placements(in: frame, screen: target.size) where !except.contains(placement.index) {
            guard let caption = images.caption(placement.index) else { continue }
            captions.draw(caption, offsetX: placement.offsetX, alpha: placement.alpha, into: &target)
            // The whole slot when the caption cannot be measured: a superset is safe.
            areas.append(captions.area(of: caption, offsetX: placement.offsetX) ?? target.bounds)
        }
        return areas
    }

    /// The pages that show their caption over the pager's black at their own size (aligned to
    /// whole pixels): their bottom band, caption included, comes from the painter's cache, and
    /// covers those rows of the page's slot (`rect`).
    private func captionBands(_ frame: SceneFrame, pages: [PhotoPlacement], images: PhotoImages,
                              screen: PixelRect) -> [Int: (band: CaptionPainter.CaptionBand, rect: PixelRect)] {
        guard let captions, frame.mode == .pager, !frame.drawsGrid,
              PixelMath.alphaWeight(frame.backgroundAlpha) == PixelMath.opaque else { return [:] }
        // Only captions at full strength: a band is drawn at one alpha.
        let shown = Set(CaptionPlacement.placements(in: frame, screen: Size(width: screen.width, height: screen.height))
            .filter { PixelMath.alphaWeight($0.alpha) == PixelMath.opaque }.map(\.index))
        var bands: [Int: (band: CaptionPainter.CaptionBand, rect: PixelRect)] = [:]
        // A band holds its photo's pixels and caption, drawn before the pages after it: only when
        // every page hides what is under it.
        guard pages.allSatisfy({ PixelMath.alphaWeight($0.alpha) == PixelMath.opaque }) else { return [:] }
        for page in pages where shown.contains(page.index) {
            guard let caption = images.caption(page.index), let image = images.screenImage(page.index)?.image,
                  Double(image.width) == page.rect.width, Double(image.height) == page.rect.height,
                  page.rect.minX == page.rect.minX.rounded(), page.rect.minY == page.rect.minY.rounded() else { continue }
            let restX = (screen.width - image.width) / 2
            let dx = Int(pixel: page.rect.minX) - restX
            guard let band = captions.band(for: caption, image: image, imageOrigin: (restX, Int(pixel: page.rect.minY)),
                                           contentVersion: page.contentVersion) else { continue }
            bands[page.index] = (band, PixelRect(x: dx, y: band.top, width: screen.width, height: band.bitmap.height))
        }
        return bands
    }

    /// The straightforward composition: every layer over the whole screen. The reference that
    /// `render` must match.
    func renderDirectly(_ frame: SceneFrame, images: PhotoImages, into target: inout Bitmap) {
        let screen = target.bounds
        if frame.mode == .slideshow {
            var placed = frame
            placed.pages = frame.pages.map { aligned($0, images: images) }
            renderDissolvedDirectly(placed.pages, images: images, into: &target)
            if let moving = frame.movingPhoto { drawPhoto(moving, images: images, into: &target) }
            drawCaptions(placed, images: images, into: &target)
            return
        }
        if frame.drawsGrid {
            target.fill(screen, color: grid.backgroundColor)
            for cell in frame.gridCells where cell.index != frame.hiddenIndex {
                let rect = Self.onWholePixels(cell.rect)
                let clip = rect.enclosingPixels.intersection(screen)
                guard !clip.isEmpty else { continue }
                if let thumbnail = images.thumbnail(cell.index) {
                    target.drawAspectFill(thumbnail, in: rect, clip: clip)
                } else {
                    target.fill(clip, color: grid.placeholderColor)
                }
                if let badge = images.badge(cell.index) { badges.draw(badge, cell: rect, clip: clip, into: &target) }
            }
            if frame.backgroundAlpha > 0 {
                target.blend(screen, color: Pixel.black, alpha: min(1, frame.backgroundAlpha))
            }
        } else {
            target.fill(screen, color: Pixel.black)
        }
        var placed = frame
        placed.pages = frame.pages.map { aligned($0, images: images) }
        for page in placed.pages {
            drawPhoto(page, images: images, into: &target)
        }
        if let moving = frame.movingPhoto {
            drawPhoto(moving, images: images, into: &target)
        }
        drawCaptions(placed, images: images, into: &target)
    }

    /// The dissolve by its definition (`Dissolve`): each page drawn alone at alpha 1 over black,
    /// then per pixel and channel the sum of each covering page's pixel times its weight (cut so
    /// that the weights add up to at most `opaque`), over black.
    private func renderDissolvedDirectly(_ pages: [PhotoPlacement], images: PhotoImages, into target: inout Bitmap) {
        let screen = target.bounds
        var layers: [(picture: Bitmap, covered: PixelRect, weight: Int)] = []
        for page in pages {
            var alone = Bitmap(width: target.width, height: target.height)
            var whole = page
            whole.alpha = 1
            drawPhoto(whole, images: images, into: &alone)
            let source = source(of: page.index, images: images)
            let covered = source.picture.map { picture in
                picture.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0)
                    : Self.centredPixels(source.drawnRect(page.rect)).intersection(screen)
            } ?? page.rect.enclosingPixels.intersection(screen)
            layers.append((alone, covered, PixelMath.alphaWeight(page.alpha)))
        }
        for y in 0..<target.height {
            for x in 0..<target.width {
                var left = PixelMath.opaque, pixel: UInt32 = 0
                var sums = [128, 128, 128]
                for layer in layers where layer.weight > 0 && (layer.covered.minX..<layer.covered.maxX).contains(x)
                    && (layer.covered.minY..<layer.covered.maxY).contains(y) {
                    let weight = min(layer.weight, left)
                    left -= weight
                    for (channel, shift) in [16, 8, 0].enumerated() {
                        sums[channel] += Int(layer.picture[x, y] >> UInt32(shift) & 0xFF) * weight
                    }
                }
                for (channel, shift) in [16, 8, 0].enumerated() { pixel |= UInt32(sums[channel] / 256) << UInt32(shift) }
                target[x, y] = pixel
            }
        }
    }

    /// What `renderDirectly` draws for `frame`, item by item: the picture the next frame's is
    /// compared with.
    private func picture(of frame: SceneFrame, pages: [PhotoPlacement], dissolved: Bool, images: PhotoImages,
                         screen: PixelRect) -> DrawnPicture {
        let dim = PixelMath.alphaWeight(min(1, frame.backgroundAlpha))
        var picture = DrawnPicture(width: screen.width, height: screen.height, placeholderColor: grid.placeholderColor,
                                   base: dissolved ? .dissolved
                                       : frame.drawsGrid && dim < PixelMath.opaque
                                       ? .grid(background: grid.backgroundColor, dim: dim) : .black)
        if case .grid = picture.base {
            for cell in frame.gridCells {
                let rect = Self.onWholePixels(cell.rect)
                let area = rect.enclosingPixels.intersection(screen)
                let content: DrawnPicture.Content = cell.index == frame.hiddenIndex ? .hiddenCell
                    : .picture(rect: rect, image: images.thumbnail(cell.index).map(ImageIdentity.init),
                               alpha: PixelMath.opaque, contentVersion: cell.contentVersion, badge: images.badge(cell.index))
                picture.items.append(DrawnPicture.Item(area: area, content: content))
            }
        }
        for photo in pages + (frame.movingPhoto.map { [$0] } ?? []) {
            let image: ImageIdentity?
            switch source(of: photo.index, images: images) {
            case .screenImage(let chain): image = ImageIdentity(chain.image)
            case .thumbnail(let bitmap): image = ImageIdentity(bitmap)
            case .placeholder: image = nil
            }
            picture.items.append(DrawnPicture.Item(
                area: photo.rect.enclosingPixels.intersection(screen),
                content: .picture(rect: photo.rect, image: image, alpha: PixelMath.alphaWeight(photo.alpha),
                                  contentVersion: photo.contentVersion)))
        }
        if let captions {
            var placed = frame
            placed.pages = pages
            for placement in CaptionPlacement.placements(in: placed, screen: Size(width: screen.width, height: screen.height)) {
                guard let caption = images.caption(placement.index),
                      let area = captions.area(of: caption, offsetX: placement.offsetX) else { continue }
                picture.items.append(DrawnPicture.Item(
                    area: area, content: .caption(caption.identity, offsetX: Int(pixel: placement.offsetX.rounded()),
                                                  alpha: placement.alpha)))
            }
        }
        return picture
    }

    /// The grid cells (`thumbnails` and `badges` in the order of `frame.gridCells`) and the
    /// background in the gaps between them, which is all the screen the cells do not cover; only
    /// the pixels in `clip` (the whole target by default).
    private func drawGrid(_ frame: SceneFrame, thumbnails: [Bitmap?], badges labels: [String?], into target: inout Bitmap,
                          clip: PixelRect? = nil) {
        let region = clip.map { $0.intersection(target.bounds) } ?? target.bounds
        var covered: [PixelRect] = []
        let rects = frame.gridCells.map { Self.onWholePixels($0.rect) }
        for (i, (cell, thumbnail)) in zip(frame.gridCells, thumbnails).enumerated() where cell.index != frame.hiddenIndex {
            if let thumbnail, !thumbnail.isEmpty {
                covered.append(Self.centredPixels(rects[i]).intersection(region))
            } else {
                covered.append(rects[i].enclosingPixels.intersection(region))
            }
        }
        for rect in Self.area(region, minus: covered) { target.fill(rect, color: grid.backgroundColor) }
        for (i, (cell, thumbnail)) in zip(frame.gridCells, thumbnails).enumerated() where cell.index != frame.hiddenIndex {
            let cellClip = rects[i].enclosingPixels.intersection(region)
            guard !cellClip.isEmpty else { continue }
            if let thumbnail {
                target.drawAspectFill(thumbnail, in: rects[i], clip: cellClip)
            } else {
                target.fill(cellClip, color: grid.placeholderColor)
            }
            if let badge = labels[i] { badges.draw(badge, cell: rects[i], clip: cellClip, into: &target) }
        }
    }

    /// A page shown at its image's own size (the pager at rest or sliding) moves to whole pixels:
    /// then it is a plain copy of rows instead of a resample, and a page in motion shows no
    /// difference. A zoomed page, or one whose screen image is not decoded yet, keeps its rect.
    private func aligned(_ page: PhotoPlacement, images: PhotoImages) -> PhotoPlacement {
        guard let image = images.screenImage(page.index)?.image,
              abs(page.rect.width - Double(image.width)) < 0.5, abs(page.rect.height - Double(image.height)) < 0.5,
              page.rect.minX.isFinite, page.rect.minY.isFinite else { return page }
        let x = (page.rect.midX - Double(image.width) / 2).rounded()
        let y = (page.rect.midY - Double(image.height) / 2).rounded()
        var placed = page
        placed.rect = Rect(x: x, y: y, width: Double(image.width), height: Double(image.height))
        return placed
    }

    /// What a photo is drawn from: its screen image, else its thumbnail, else the placeholder.
    private enum PhotoSource {
        case screenImage(MipChain)
        case thumbnail(Bitmap)
        case placeholder

        /// The pixels drawn from (the screen image's full level); nil: the placeholder colour.
        var picture: Bitmap? {
            switch self {
            case .screenImage(let chain): chain.image
            case .thumbnail(let thumbnail): thumbnail
            case .placeholder: nil
            }
        }

        /// Where a photo in `rect` is drawn from it: the rect, or a thumbnail's part of it.
        func drawnRect(_ rect: Rect) -> Rect {
            if case .thumbnail(let thumbnail) = self { Renderer.thumbnailRect(thumbnail, in: rect) } else { rect }
        }
    }

    private func source(of index: Int, images: PhotoImages) -> PhotoSource {
        if let image = images.screenImage(index) { return .screenImage(image) }
        if let thumbnail = images.thumbnail(index) { return .thumbnail(thumbnail) }
        return .placeholder
    }

    /// The photo aspect-filled into its rect and clipped to it, over what is there at its alpha:
    /// for a page the rect already has the photo's aspect ratio, so this shows it whole; for a
    /// transition it is the carried frame.
    private func drawPhoto(_ photo: PhotoPlacement, images: PhotoImages, into target: inout Bitmap,
                           clip limit: PixelRect? = nil) {
        let rect = photo.rect
        let clip = rect.enclosingPixels.intersection(limit.map { $0.intersection(target.bounds) } ?? target.bounds)
        guard !clip.isEmpty else { return }
        switch source(of: photo.index, images: images) {
        case .screenImage(let image): target.drawAspectFill(image, in: rect, clip: clip, alpha: photo.alpha)
        case .thumbnail(let thumbnail):
            target.drawAspectFill(thumbnail, in: Self.thumbnailRect(thumbnail, in: rect), clip: clip, alpha: photo.alpha)
        case .placeholder: target.blend(clip, color: grid.placeholderColor, alpha: photo.alpha)
        }
    }

    /// The pixels `drawPhoto` overwrites, all of them opaque, so nothing under them needs drawing;
    /// nil when that is not certain (a translucent photo shows what is under it).
    private func coveredPixels(_ photo: PhotoPlacement, images: PhotoImages, screen: PixelRect) -> PixelRect? {
        let rect = photo.rect
        guard PixelMath.alphaWeight(photo.alpha) == PixelMath.opaque, rect.minX.isFinite, rect.minY.isFinite,
              rect.maxX.isFinite, rect.maxY.isFinite, !rect.isEmpty else { return nil }
        let source = source(of: photo.index, images: images)
        guard let picture = source.picture else { return rect.enclosingPixels.intersection(screen) }
        // A scaled draw writes the pixels whose centres lie inside the rect it draws into.
        return picture.isEmpty ? nil : Self.centredPixels(source.drawnRect(rect)).intersection(screen)
    }

    /// Where a photo's thumbnail is drawn when it stands in for the photo in `rect`: the rect
    /// (aspect-fill, as the screen image is drawn), unless the thumbnail is a panorama's centred
    /// crop (`ImageSize.thumbnailDecodeSize`) and the rect is longer than the crop, which the
    /// photo's own rect in a transition or a page becomes: then the crop in its centred part of
    /// the rect, what lies under the rest showing until the screen image comes. A thumbnail of
    /// the photo's whole shape is short of such a rect by its rounding only, under a pixel of it.
    static func thumbnailRect(_ thumbnail: Bitmap, in rect: Rect) -> Rect {
        guard thumbnail.width > 0, thumbnail.height > 0, rect.width > 0, rect.height > 0 else { return rect }
        let width = Double(thumbnail.width), height = Double(thumbnail.height)
        if width >= height, rect.width * height / rect.height - width > 1 {
            let covered = rect.height * width / height
            return Rect(x: rect.midX - covered / 2, y: rect.minY, width: covered, height: rect.height)
        }
        if height >= width, rect.height * width / rect.width - height > 1 {
            let covered = rect.width * height / width
            return Rect(x: rect.minX, y: rect.midY - covered / 2, width: rect.width, height: covered)
        }
        return rect
    }

    /// A grid cell moves in whole pixels (as UIKit rounds a scroll offset to the screen's pixels):
    /// its thumbnail, made at the cell's size, is then copied row by row rather than resampled
    /// at a fraction of a pixel on every frame of a scroll.
    public static func onWholePixels(_ rect: Rect) -> Rect {
        guard rect.minX.isFinite, rect.minY.isFinite else { return rect }
        return Rect(x: rect.minX.rounded(), y: rect.minY.rounded(), width: rect.width, height: rect.height)
    }

    /// The pixels whose centres lie inside `rect`: those a scaled draw into it writes.
    static func centredPixels(_ rect: Rect) -> PixelRect {
        let x0 = Int(pixel: (rect.minX - 0.5).rounded(.up)), x1 = Int(pixel: (rect.maxX - 0.5).rounded(.up))
        let y0 = Int(pixel: (rect.minY - 0.5).rounded(.up)), y1 = Int(pixel: (rect.maxY - 0.5).rounded(.up))
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// `area` without `holes`, as disjoint rectangles: bands between the holes' top and bottom
    /// edges, and in each band the runs between the holes that cross it.
    static func area(_ area: PixelRect, minus holes: [PixelRect]) -> [PixelRect] {
        let holes = holes.map { $0.intersection(area) }.filter { !$0.isEmpty }
        guard !area.isEmpty else { return [] }
        guard !holes.isEmpty else { return [area] }
        let edges = Set([area.minY, area.maxY] + holes.flatMap { [$0.minY, $0.maxY] }).sorted()
        var pieces: [PixelRect] = []
        for (top, bottom) in zip(edges, edges.dropFirst()) {
            let crossing = holes.filter { $0.minY <= top && $0.maxY >= bottom }.sorted { $0.minX < $1.minX }
            var x = area.minX
            for hole in crossing {
                if hole.minX > x { pieces.append(PixelRect(x: x, y: top, width: hole.minX - x, height: bottom - top)) }
                x = max(x, hole.maxX)
            }
            if x < area.maxX { pieces.append(PixelRect(x: x, y: top, width: area.maxX - x, height: bottom - top)) }
        }
        return pieces
    }
}
