import Animation
import Geometry

/// The full-screen pager: photos aspect-fit on black, side by side with `pageSpacing` between them,
/// dragged 1:1, settled by a critically damped spring; the current photo zooms and pans with the
/// grid's scroll physics, and a drag at a zoomed photo's side edge pages (SPEC §1, Pager).
/// Others read it; only the `Scene` that owns it moves it.
public final class PagerView: TransitionEnd {
    public let screenSize: Size
    public private(set) var photoSizes: [Size]
    public private(set) var currentIndex = 0
    public private(set) var hiddenIndex: Int?
    /// Horizontal displacement of the pages (positive: moved right), rubber band included.
    public private(set) var pageOffset = 0.0
    /// The current photo's rect at its zoom, before `pageOffset`; its aspect-fit rect at 1x.
    public private(set) var zoomedRect = Rect.zero

    /// How close (px) a zoomed photo's side must be to the screen's for a drag to page (SPEC §1).
    public static let edgeTolerance = 0.5

    private let parameters: SceneParameters.Pager
    /// A zoomed photo's pan coasts and bounces as the grid's scroll does.
    private let scrolling: SceneParameters.Grid
    private var settle: AnimatedVector?
    private var zoomAnimation: AnimatedVector?
    /// The slideshow handed the photo over as it was on screen (`takeOver`): it springs to its fit
    /// whatever the finger does, as the page at 1x (a touch holds the pages, never this).
    private var fitReturn: AnimatedVector?
    /// A released pan of a zoomed photo, per axis.
    private var panRelease: (x: ScrollRelease?, y: ScrollRelease?)
    /// The page that was current when a drag paged away from it zoomed: it stays zoomed beside the
    /// current one until the settle ends. `rect` is its zoomed rect in its own page's coordinates.
    private var leavingPage: PhotoPlacement?
    /// Where a drag, pinch or pan started.
    private var dragStartOffset = 0.0
    /// A pan's unbanded x at its previous movement; nil before its first.
    private var previousPanX: Double?
    private var gestureStartRect = Rect.zero
    /// The pinch began on a photo at rest at 1x: scaled below 1 it becomes a dismissal.
    public private(set) var pinchStartedAtFit = false

    public init(parameters: SceneParameters.Pager, scrolling: SceneParameters.Grid = SceneParameters.Grid(),
                screenSize: Size, photoSizes: [Size]) {
        self.parameters = parameters
        self.scrolling = scrolling
        self.screenSize = screenSize
        self.photoSizes = photoSizes
        zoomedRect = fitRect(of: 0)
    }

    private var screen: Rect { Rect(origin: .zero, size: screenSize) }
    /// The distance from one page to the next at 1x.
    public var pageWidth: Double { screenSize.width + parameters.pageSpacing }
    public var lastIndex: Int { photoSizes.count - 1 }

    /// The photo aspect-fit on the screen, on whole pixels: at rest its screen image, decoded at
    /// that size, is copied 1:1.
    public func fitRect(of index: Int) -> Rect {
        guard index >= 0, index < photoSizes.count else { return screen }
        return screen.aspectFitOnPixels(photoSizes[index])
    }

    /// Photo `index` in its own page's coordinates: the current one at its zoom, a page leaving
    /// zoomed at its zoom, the others aspect-fit.
    private func baseRect(of index: Int) -> Rect {
        if index == currentIndex { return zoomedRect }
        if let leaving = leavingPage, leaving.index == index { return leaving.rect }
        return fitRect(of: index)
    }

    /// A page spans the screen, or its zoomed photo where that reaches past the screen's sides.
    private func pageSpan(_ rect: Rect) -> (minX: Double, maxX: Double) {
        (min(0, rect.minX), max(screenSize.width, rect.maxX))
    }

    /// Where page `index` starts relative to the current one: `pageSpacing` between the pages'
    /// spans, so a zoomed photo keeps its neighbours beside its own edges (at 1x: ±pageWidth).
    private func pagePosition(of index: Int, direction: Int) -> Double {
        let current = pageSpan(zoomedRect), other = pageSpan(baseRect(of: index))
        return direction > 0 ? current.maxX + parameters.pageSpacing - other.minX
            : current.minX - parameters.pageSpacing - other.maxX
    }

    /// Photo `index` on screen now: its neighbours beside it, the current one at its zoom.
    public func pageRect(of index: Int) -> Rect {
        let position: Double
        switch index - currentIndex {
        case 0: position = 0
        case 1: position = pagePosition(of: index, direction: 1)
        case -1: position = pagePosition(of: index, direction: -1)
        case let step: position = Double(step) * pageWidth
        }
        return baseRect(of: index).offsetBy(dx: position + pageOffset, dy: 0)
    }

    /// The current page (always, so the current photo's rect is known even while it slides in)
    /// and the neighbours that are at least partly on screen.
    public func visiblePages() -> [PhotoPlacement] {
        guard !photoSizes.isEmpty else { return [] }
        return (max(currentIndex - 1, 0)...min(currentIndex + 1, lastIndex)).compactMap { index in
            guard index != hiddenIndex else { return nil }
            let rect = pageRect(of: index)
            let shown = index == currentIndex || rect.intersection(screen) != nil
            return shown ? PhotoPlacement(index: index, rect: rect) : nil
        }
    }

    public var zoomScale: Double { zoomScale(of: PhotoPlacement(index: currentIndex, rect: zoomedRect)) }

    /// A page's width over its photo's aspect-fit width.
    private func zoomScale(of page: PhotoPlacement) -> Double {
        let fit = fitRect(of: page.index)
        return fit.width > 0 ? page.rect.width / fit.width : 1
    }

    public var isZoomed: Bool { (zoomScale > 1.001 && fitReturn == nil) || zoomAnimation != nil }

    /// At rest at 1x and not between pages: a downward drag may dismiss.
    public var canDismiss: Bool { !isZoomed && settle == nil && abs(pageOffset) < 0.5 }

    public var isAnimating: Bool {
        settle != nil || zoomAnimation != nil || fitReturn != nil || panRelease.x != nil || panRelease.y != nil
    }

    // MARK: TransitionEnd

    public func frame(of index: Int) -> Rect? {
        guard index >= 0, index < photoSizes.count else { return nil }
        return pageRect(of: index)
    }

    public func setHidden(_ index: Int?) {
        hiddenIndex = index
    }

    // MARK: State

    /// Shows photo `index` at rest at 1x, without animation.
    func show(_ index: Int) {
        currentIndex = min(max(index, 0), max(lastIndex, 0))
        pageOffset = 0
        settle = nil
        zoomAnimation = nil
        fitReturn = nil
        panRelease = (nil, nil)
        leavingPage = nil
        zoomedRect = fitRect(of: currentIndex)
    }

    /// The slideshow ends on photo `index`, shown at `rect` (its Ken Burns zoom, its half of a pair)
    /// `offset` px from its page's place (a slide transition's): the page goes on from there, the
    /// photo springing to its fit on the zoom spring and the page settling as after a drag.
    func takeOver(_ index: Int, rect: Rect, offset: Double, at time: Double) {
        show(index)
        pageOffset = offset
        let fit = fitRect(of: currentIndex)
        let apart = zip(Self.components(rect), Self.components(fit)).map { abs($0 - $1) }.max() ?? 0
        if apart > 0.01 {
            zoomedRect = rect
            fitReturn = AnimatedVector(from: Self.components(rect), to: Self.components(fit), startTime: time,
                                       curve: parameters.zoom)
        }
        settleOffset(velocity: 0, at: time)
    }

    /// The library changed; the current photo stays as it is if it kept its index and size.
    func setPhotoSizes(_ sizes: [Size], currentIndex index: Int) {
        let unchanged = index == currentIndex && index < sizes.count && index < photoSizes.count
            && sizes[index] == photoSizes[index]
        photoSizes = sizes
        leavingPage = nil
        if !unchanged { show(index) }
    }

    func update(to time: Double) {
        if let animation = settle {
            pageOffset = animation.value(at: time)[0]
            if animation.isFinished(at: time) {
                settle = nil
                // The page that left is back at 1x (SPEC §1).
                leavingPage = nil
            }
        }
        if let animation = zoomAnimation {
            zoomedRect = Self.rect(animation.value(at: time))
            if animation.isFinished(at: time) { zoomAnimation = nil }
        }
        if let animation = fitReturn {
            zoomedRect = Self.rect(animation.value(at: time))
            if animation.isFinished(at: time) { fitReturn = nil }
        }
        if let release = panRelease.x {
            zoomedRect.origin.x = release.position(at: time)
            if release.isFinished(at: time) { panRelease.x = nil }
        }
        if let release = panRelease.y {
            zoomedRect.origin.y = release.position(at: time)
            if release.isFinished(at: time) { panRelease.y = nil }
        }
    }

    /// A finger touched down: whatever moves stops where it is.
    func hold(at time: Double) {
        update(to: time)
        settle = nil
        zoomAnimation = nil
        panRelease = (nil, nil)
    }

    /// A touch that did nothing lifted: finish what it stopped.
    func release(at time: Double) {
        settleOffset(velocity: 0, at: time)
        endPan(velocity: .zero, at: time)
    }

    // MARK: Paging

    func beginDrag() {
        dragStartOffset = pageOffset
        panRelease = (nil, nil)
    }

    /// The finger travelled `dx` since touch-down: 1:1, rubber-banded past the first and last photo.
    func drag(dx: Double) {
        let raw = dragStartOffset + dx
        let lower = currentIndex == lastIndex ? 0 : -Double.infinity
        let upper = currentIndex == 0 ? 0 : Double.infinity
        pageOffset = RubberBand.clamp(raw, lower: lower, upper: upper, dimension: screenSize.width)
    }

    /// The finger lifted moving at `velocityX` px/s. Returns the new current photo if it changed.
    @discardableResult
    func endDrag(velocityX: Double, at time: Double) -> Int? {
        let dx = pageOffset
        // The neighbour the drag leans towards: left drag shows the next photo.
        let direction = dx < 0 ? 1 : dx > 0 ? -1 : (velocityX < 0 ? 1 : -1)
        let speedTowards = direction == 1 ? -velocityX : velocityX
        let flick = parameters.flickVelocity
        let goes = (abs(dx) > screenSize.width / 2 || speedTowards > flick) && -speedTowards <= flick
        let target = currentIndex + direction
        var velocity = velocityX
        let pastEnd = (currentIndex == 0 && dx > 0) || (currentIndex == lastIndex && dx < 0)
        if pastEnd {
            let raw = RubberBand.overshoot(forOffset: dx, dimension: screenSize.width)
            velocity *= RubberBand.slope(raw, dimension: screenSize.width)
        }
        var changed: Int?
        if goes, target >= 0, target <= lastIndex, !pastEnd {
            move(to: target, direction: direction)
            changed = target
        }
        settleOffset(velocity: velocity, at: time)
        return changed
    }

    /// Slideshow: the next photo (after the last comes the first) slides in from the right; the
    /// remote's "previous" (`direction` -1) from the left.
    func advance(to index: Int, direction: Int = 1, at time: Double) {
        guard index >= 0, index <= lastIndex, index != currentIndex else { return }
        hold(at: time)
        move(to: index, direction: direction)
        settleOffset(velocity: 0, at: time)
    }

    /// Makes `index` current while the pages stay where they are on screen. A zoomed page that
    /// leaves stays zoomed beside it until the settle ends; one coming back keeps its zoom.
    private func move(to index: Int, direction: Int) {
        pageOffset += pagePosition(of: index, direction: direction)
        let left = PhotoPlacement(index: currentIndex, rect: zoomedRect)
        zoomedRect = baseRect(of: index)
        leavingPage = zoomScale(of: left) > 1.001 ? left : nil
        currentIndex = index
        zoomAnimation = nil
        fitReturn = nil
        panRelease = (nil, nil)
    }

    private func settleOffset(velocity: Double, at time: Double) {
        guard abs(pageOffset) > 0.01 else {
            pageOffset = 0
            settle = nil
            leavingPage = nil
            return
        }
        // Critically damped (SPEC §1).
        settle = .spring(from: [pageOffset], to: [0], velocity: [velocity], startTime: time,
                         duration: parameters.settleDuration, dampingRatio: 1)
    }

    // MARK: Zoom

    func beginPinch() {
        pinchStartedAtFit = canDismiss
        fitReturn = nil
        gestureStartRect = zoomedRect
        panRelease = (nil, nil)
    }

    /// Fingers `scale` times as far apart as at the start, their midpoint moved from `startCenter`
    /// to `center`: the photo point under the midpoint stays under it. Past 1x and max_zoom it resists.
    func pinch(startCenter: Point, center: Point, scale: Double) {
        let fit = fitRect(of: currentIndex)
        guard fit.width > 0, gestureStartRect.width > 0 else { return }
        let startScale = gestureStartRect.width / fit.width
        let wanted = startScale * scale
        let shown = RubberBand.clamp(wanted, lower: 1, upper: parameters.maxZoom, dimension: 1)
        let ratio = max(shown, 0.05) / startScale
        zoomedRect = Self.scaled(gestureStartRect, about: startCenter, by: ratio)
            .offsetBy(dx: center.x - startCenter.x, dy: center.y - startCenter.y)
    }

    func endPinch(center: Point, at time: Double) {
        // In range too: the pinch may have moved the photo off its edges; it goes back on the zoom spring.
        settleZoom(about: center, at: time, evenInRange: true)
    }

    /// Double tap: zoomed goes back to 1x, 1x zooms to double_tap_zoom about the tap point.
    func toggleZoom(at point: Point, at time: Double) {
        hold(at: time)
        let fit = fitRect(of: currentIndex)
        let target: Rect
        if zoomScale > 1.001 {
            target = fit
        } else {
            target = clampedToScreen(Self.scaled(fit, about: point, by: parameters.doubleTapZoom))
        }
        animateZoom(to: target, at: time)
    }

    // MARK: Panning a zoomed photo

    /// The range of the photo's origin on one axis: its edges outside the screen's, or centred
    /// where it is smaller than the screen.
    private static func panLimits(length: Double, screen: Double) -> (lower: Double, upper: Double) {
        length <= screen ? ((screen - length) / 2, (screen - length) / 2) : (screen - length, 0)
    }

    private var panLimitsX: (lower: Double, upper: Double) {
        Self.panLimits(length: zoomedRect.width, screen: screenSize.width)
    }

    private var panLimitsY: (lower: Double, upper: Double) {
        Self.panLimits(length: zoomedRect.height, screen: screenSize.height)
    }

    /// Edge hand-off (SPEC §1): a zoomed photo whose side is at the screen's side (within 0.5 px)
    /// pages when the drag's first movement `translation` is sideways towards that side's neighbour
    /// (rightward at the left edge, leftward at the right edge).
    func handsOverToPaging(firstMove translation: Point) -> Bool {
        guard abs(translation.x) > abs(translation.y) else { return false }
        let limits = panLimitsX
        if translation.x > 0 { return zoomedRect.x >= limits.upper - Self.edgeTolerance }
        return zoomedRect.x <= limits.lower + Self.edgeTolerance
    }

    func beginPan() {
        // Caught past an edge (bouncing): the finger holds it where the band shows it.
        let x = panLimitsX, y = panLimitsY
        gestureStartRect = zoomedRect
        gestureStartRect.origin = Point(
            x: RubberBand.unclamp(zoomedRect.x, lower: x.lower, upper: x.upper, dimension: screenSize.width),
            y: RubberBand.unclamp(zoomedRect.y, lower: y.lower, upper: y.upper, dimension: screenSize.height))
        panRelease = (nil, nil)
        previousPanX = nil
    }

    /// A zoomed photo follows the finger 1:1, rubber-banded past its edges with the grid's formula
    /// (d = the screen's width or height). Returns true when the pan hands over to paging: moving
    /// sideways, it reached a side edge it was inside of at the previous movement (SPEC §1 allows
    /// it mid-pan). From there the finger's travel past that edge moves the pages as at 1x, and the
    /// photo's vertical pan is let go. A pan whose first movement already went past the edge was
    /// decided by `handsOverToPaging(firstMove:)` and rubber-bands.
    @discardableResult
    func pan(translation: Point, at time: Double) -> Bool {
        let x = panLimitsX, y = panLimitsY
        let rawX = gestureStartRect.x + translation.x
        let previous = previousPanX
        previousPanX = rawX
        if let previous, abs(translation.x) > abs(translation.y) {
            let edge: Double? = if previous <= x.upper, rawX > x.upper { x.upper }
                else if previous >= x.lower, rawX < x.lower { x.lower } else { nil }
            if let edge {
                zoomedRect.origin.x = edge
                releasePan(velocity: .zero, at: time)
                // pageOffset = the finger's travel past the edge, as drag(dx:) reckons it.
                dragStartOffset = gestureStartRect.x - edge
                drag(dx: translation.x)
                return true
            }
        }
        zoomedRect.origin = Point(
            x: RubberBand.clamp(gestureStartRect.x + translation.x, lower: x.lower, upper: x.upper,
                                dimension: screenSize.width),
            y: RubberBand.clamp(gestureStartRect.y + translation.y, lower: y.lower, upper: y.upper,
                                dimension: screenSize.height))
        return false
    }

    /// The finger lifted from a zoomed photo moving at `velocity` px/s: a zoom out of range springs
    /// back into it; else the photo coasts at the grid's deceleration rate and springs back from
    /// past an edge on the bounce spring.
    func endPan(velocity: Point, at time: Double) {
        guard fitReturn == nil else { return }
        if !settleZoom(about: zoomedRect.center, at: time) { releasePan(velocity: velocity, at: time) }
    }

    private func releasePan(velocity: Point, at time: Double) {
        guard zoomScale > 1.001 else { return }
        let x = panLimitsX, y = panLimitsY
        func axis(_ position: Double, _ v: Double, _ limits: (lower: Double, upper: Double), _ d: Double) -> ScrollRelease? {
            let release = ScrollRelease(position: position, velocity: v, time: time, lower: limits.lower,
                                        upper: limits.upper, decelerationRate: scrolling.decelerationRate,
                                        bounce: scrolling.bounce, dimension: d)
            return release.isFinished(at: time) ? nil : release
        }
        panRelease = (axis(zoomedRect.x, velocity.x, x, screenSize.width),
                      axis(zoomedRect.y, velocity.y, y, screenSize.height))
    }

    /// Springs a zoom outside 1x...max_zoom back into range about `center`, and the photo onto the
    /// screen's edges. False (and nothing done) if the zoom was in range, unless `evenInRange`.
    @discardableResult
    private func settleZoom(about center: Point, at time: Double, evenInRange: Bool = false) -> Bool {
        let scale = zoomScale
        let target = min(max(scale, 1), parameters.maxZoom)
        guard evenInRange || abs(target - scale) > 1e-9 else { return false }
        let fit = fitRect(of: currentIndex)
        let goal = target <= 1.001 ? fit : clampedToScreen(Self.scaled(zoomedRect, about: center, by: target / scale))
        if goal != zoomedRect { animateZoom(to: goal, at: time) }
        return true
    }

    private func animateZoom(to target: Rect, at time: Double) {
        panRelease = (nil, nil)
        fitReturn = nil
        zoomAnimation = AnimatedVector(from: Self.components(zoomedRect), to: Self.components(target), startTime: time,
                                       curve: parameters.zoom)
    }

    /// Centred on an axis where it is smaller than the screen, else covering the screen on it.
    private func clampedToScreen(_ rect: Rect) -> Rect {
        func axis(_ origin: Double, _ length: Double, _ screenLength: Double) -> Double {
            length <= screenLength ? (screenLength - length) / 2 : min(max(origin, screenLength - length), 0)
        }
        return Rect(x: axis(rect.x, rect.width, screenSize.width), y: axis(rect.y, rect.height, screenSize.height),
                    width: rect.width, height: rect.height)
    }

    private static func scaled(_ rect: Rect, about point: Point, by factor: Double) -> Rect {
        Rect(x: point.x + (rect.x - point.x) * factor, y: point.y + (rect.y - point.y) * factor,
             width: rect.width * factor, height: rect.height * factor)
    }

    static func components(_ rect: Rect) -> [Double] { [rect.x, rect.y, rect.width, rect.height] }

    static func rect(_ values: [Double]) -> Rect { Rect(x: values[0], y: values[1], width: values[2], height: values[3]) }
}
