import Blitter
import CPixman
import Config
import Geometry
import Rendering
import Scene

/// pixman drawing a `SceneFrame` the straightforward way, the baseline the renderer's frames are
/// compared with: every layer over the whole screen, in SPEC §3's order, with the same sampling
/// (bilinear, same mip level, same source crop clamped at the same pixels, same destination
/// pixels) as the blitter, reading the same pixels (its images share the bitmaps'). Views of the
/// crops are made per draw, as a real compositor would set up its source; that costs pixman a
/// little.
final class NaiveComposite {
    let photos: PhotoImages
    let grid: Settings.Grid
    let screen: PixelRect
    private var thumbnails: [Int: PixmanImage] = [:]
    private var levels: [String: PixmanImage] = [:]

    init(photos: PhotoImages, grid: Settings.Grid, width: Int, height: Int) {
        self.photos = photos
        self.grid = grid
        screen = PixelRect(x: 0, y: 0, width: width, height: height)
    }

    /// The grid without overlays, drawn cell by cell (as a grid scroll must).
    func drawGrid(_ frame: SceneFrame, into image: PixmanImage) {
        image.fill(screen, color: grid.backgroundColor)
        for cell in frame.gridCells where cell.index != frame.hiddenIndex {
            guard let thumbnail = photos.thumbnail(cell.index) else { continue }
            // The same picture as the renderer's: cells on whole pixels.
            let rect = Renderer.onWholePixels(cell.rect)
            let (source, crop) = thumbnailImage(cell.index, thumbnail)
                .view(touchedBy: aspectFillCrop(of: thumbnail.size, in: rect))
            source.setScaling(sourceRect: crop, destination: rect)
            image.composite(PIXMAN_OP_SRC, source, rect: rect.centredPixels)
        }
    }

    /// The whole frame into `target`; `gridLayer`, when given, is the grid already drawn (copied,
    /// not redrawn).
    func render(_ frame: SceneFrame, gridLayer: PixmanImage?, into target: PixmanImage) {
        if frame.drawsGrid {
            if let gridLayer {
                gridLayer.clearScaling()
                target.composite(PIXMAN_OP_SRC, gridLayer, rect: screen)
            } else {
                drawGrid(frame, into: target)
            }
            if frame.backgroundAlpha > 0 {
                // Black at the alpha as one translucent solid, no mask: pixman's own fast path
                // (over_n_8888). Black through a solid mask takes its general path, 1.5-2x slower.
                let dim = PixmanSolid(color: 0, alpha: min(1, frame.backgroundAlpha))
                target.composite(PIXMAN_OP_OVER, dim.image, rect: screen)
            }
        } else {
            target.fill(screen, color: Pixel.black)
        }
        for page in frame.pages { drawPhoto(page.index, in: page.rect, into: target) }
        if let moving = frame.movingPhoto { drawPhoto(moving.index, in: moving.rect, into: target) }
    }

    private func drawPhoto(_ index: Int, in rect: Rect, into target: PixmanImage) {
        guard let chain = photos.screenImage(index) else { return }
        let crop = aspectFillCrop(of: chain.size, in: rect)
        let (level, levelCrop) = mipLevel(chain, sourceRect: crop, into: rect)
        let key = "\(index)/\(level)"
        let image = levels[key] ?? PixmanImage(sharing: chain.levels[level])
        levels[key] = image
        let (source, viewCrop) = image.view(touchedBy: levelCrop)
        source.setScaling(sourceRect: viewCrop, destination: rect)
        target.composite(PIXMAN_OP_SRC, source, rect: rect.centredPixels)
    }

    private func thumbnailImage(_ index: Int, _ bitmap: Bitmap) -> PixmanImage {
        if let image = thumbnails[index] { return image }
        let image = PixmanImage(sharing: bitmap)
        thumbnails[index] = image
        return image
    }
}

/// The blitter's aspect-fill crop: the part of an image of `size` that covers `frame`.
func aspectFillCrop(of size: Size, in frame: Rect) -> Rect {
    let cover = frame.aspectFill(size)
    let scale = cover.width / size.width
    return Rect(x: (frame.minX - cover.minX) / scale, y: (frame.minY - cover.minY) / scale,
                width: frame.width / scale, height: frame.height / scale)
}

/// The blitter's mip level choice: the smallest level with at least one source pixel per
/// destination pixel, and the crop in its pixels.
func mipLevel(_ chain: MipChain, sourceRect: Rect, into destination: Rect) -> (Int, Rect) {
    let image = chain.image
    var chosen = 0
    while chosen + 1 < chain.levels.count {
        let next = chain.levels[chosen + 1]
        let scaleX = sourceRect.width * Double(next.width) / Double(image.width) / destination.width
        let scaleY = sourceRect.height * Double(next.height) / Double(image.height) / destination.height
        guard min(scaleX, scaleY) >= 1 else { break }
        chosen += 1
    }
    let level = chain.levels[chosen]
    let kx = Double(level.width) / Double(image.width), ky = Double(level.height) / Double(image.height)
    return (chosen, Rect(x: sourceRect.x * kx, y: sourceRect.y * ky,
                         width: sourceRect.width * kx, height: sourceRect.height * ky))
}
