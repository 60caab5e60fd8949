import Blitter
import Config
import Geometry
import Scene

/// Draws a `SceneFrame` into a bitmap the size of the screen, in SPEC §3's order: grid (or black),
/// black background at its alpha, pager pages, the moving photo. It knows nothing about modes:
/// everything it needs is in the frame.
public struct Renderer {
    public var grid: Settings.Grid

    public init(grid: Settings.Grid) {
        self.grid = grid
    }

    public func render(_ frame: SceneFrame, images: PhotoImages, into target: inout Bitmap) {
        let screen = target.bounds
        if frame.drawsGrid {
            target.fill(screen, color: grid.backgroundColor)
            for cell in frame.gridCells where cell.index != frame.hiddenIndex {
                let clip = cell.rect.enclosingPixels.intersection(screen)
                guard !clip.isEmpty else { continue }
                if let thumbnail = images.thumbnail(cell.index) {
                    target.drawAspectFill(thumbnail, in: cell.rect, clip: clip)
                } else {
                    target.fill(clip, color: grid.placeholderColor)
                }
            }
            if frame.backgroundAlpha > 0 {
                target.blend(screen, color: Pixel.black, alpha: min(1, frame.backgroundAlpha))
            }
        } else {
            target.fill(screen, color: Pixel.black)
        }
        for page in frame.pages {
            drawPhoto(page.index, in: page.rect, images: images, into: &target)
        }
        if let moving = frame.movingPhoto {
            drawPhoto(moving.index, in: moving.rect, images: images, into: &target)
        }
    }

    /// The photo aspect-filled into `rect` and clipped to it: for a page the rect already has the
    /// photo's aspect ratio, so this shows it whole; for a transition it is the carried frame.
    private func drawPhoto(_ index: Int, in rect: Rect, images: PhotoImages, into target: inout Bitmap) {
        let clip = rect.enclosingPixels.intersection(target.bounds)
        guard !clip.isEmpty else { return }
        if let image = images.screenImage(index) {
            target.drawAspectFill(image, in: rect, clip: clip)
        } else if let thumbnail = images.thumbnail(index) {
            target.drawAspectFill(thumbnail, in: rect, clip: clip)
        } else {
            target.fill(clip, color: grid.placeholderColor)
        }
    }
}
