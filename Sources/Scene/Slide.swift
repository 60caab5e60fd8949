import Geometry

/// What one slide of the slideshow shows: one photo, or two portrait photos side by side (a pair),
/// each at its rect at rest; with Ken Burns each also zooms and pans over the slide's time on screen.
struct Slide: Equatable {
    struct Photo: Equatable {
        var index: Int
        /// Its rect at rest: aspect-fit on the screen, or in its half of a pair.
        var rest: Rect
        /// Where Ken Burns may move it (`KenBurns.rect`): the screen, or its side of a pair's gap.
        var region: Rect
        /// Its Ken Burns zoom at the end, at most `KenBurns.maxScale` (a pair's photo stays in its side).
        var maxScale: Double
        var focus: Point
    }

    var photos: [Photo]
    /// Ken Burns: the zoom and pan run from `start` to `end` (its whole time on screen); nil: still.
    var motion: (start: Double, end: Double)?

    static func == (a: Slide, b: Slide) -> Bool {
        a.photos == b.photos && a.motion?.start == b.motion?.start && a.motion?.end == b.motion?.end
    }

    var indices: [Int] { photos.map(\.index) }

    /// The photo a pager shows as it is (its rect may be zoomed): a still slide of one.
    static func still(_ index: Int, rect: Rect, screen: Rect) -> Slide {
        Slide(photos: [Photo(index: index, rest: rect, region: screen, maxScale: 1, focus: Point(x: 0.5, y: 0.5))])
    }

    /// The slide that starts at photo `index`: with `pairs`, on a landscape screen, photo `index` and
    /// the next one side by side when both are portrait (library order, never across the wrap), each
    /// aspect-fit in its half with `spacing` px between them, the pair centred; else photo `index` alone.
    static func starting(at index: Int, photoSizes: [Size], screen: Rect, pairs: Bool, spacing: Double) -> Slide {
        func isPortrait(_ i: Int) -> Bool { i < photoSizes.count && photoSizes[i].height > photoSizes[i].width }
        let single = screen.aspectFitOnPixels(photoSizes[index])
        guard pairs, screen.width > screen.height, isPortrait(index), isPortrait(index + 1) else {
            return Slide(photos: [Photo(index: index, rest: single, region: screen, maxScale: KenBurns.maxScale,
                                        focus: KenBurns.focus(of: photoSizes[index]))])
        }
        let half = Rect(x: 0, y: screen.y, width: max((screen.width - spacing) / 2, 1), height: screen.height)
        let left = half.aspectFit(photoSizes[index]), right = half.aspectFit(photoSizes[index + 1])
        let x0 = screen.x + (screen.width - left.width - spacing - right.width) / 2
        let leftRest = Rect(x: x0, y: left.y, width: left.width, height: left.height)
        let rightRest = Rect(x: leftRest.maxX + spacing, y: right.y, width: right.width, height: right.height)
        let leftRegion = Rect(x: screen.minX, y: screen.minY, width: leftRest.maxX - screen.minX, height: screen.height)
        let rightRegion = Rect(x: rightRest.minX, y: screen.minY, width: screen.maxX - rightRest.minX, height: screen.height)
        func photo(_ i: Int, _ rest: Rect, _ region: Rect) -> Photo {
            // Wider than its side would cover the gap: the zoom stops where it fills the side.
            let scale = min(KenBurns.maxScale, max(1, region.width / max(rest.width, 1)))
            return Photo(index: i, rest: rest, region: region, maxScale: scale, focus: KenBurns.focus(of: photoSizes[i]))
        }
        return Slide(photos: [photo(index, leftRest, leftRegion), photo(index + 1, rightRest, rightRegion)])
    }

    /// Each photo's rect at `time`.
    func rects(at time: Double) -> [Rect] {
        guard let motion else { return photos.map(\.rest) }
        let span = motion.end - motion.start
        let progress = span > 0 ? (time - motion.start) / span : 1
        return photos.map {
            KenBurns.rect(rest: $0.rest, region: $0.region, focus: $0.focus, scale: $0.maxScale, progress: progress)
        }
    }
}
