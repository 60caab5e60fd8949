import Animation
import Geometry

/// The full-screen pager: photos aspect-fit on black, side by side with `pageSpacing` between them,
/// dragged 1:1, settled by a critically damped spring; the current photo zooms and pans.
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

    private let parameters: SceneParameters.Pager
    private var settle: AnimatedVector?
    private var zoomAnimation: AnimatedVector?
    /// Where a drag, pinch or pan started.
    private var dragStartOffset = 0.0
    private var gestureStartRect = Rect.zero

    public init(parameters: SceneParameters.Pager, screenSize: Size, photoSizes: [Size]) {
        self.parameters = parameters
        self.screenSize = screenSize
        self.photoSizes = photoSizes
        zoomedRect = fitRect(of: 0)
    }

    private var screen: Rect { Rect(origin: .zero, size: screenSize) }
    /// The distance from one page to the next.
    public var pageWidth: Double { screenSize.width + parameters.pageSpacing }
    public var lastIndex: Int { photoSizes.count - 1 }

    /// The photo aspect-fit on the screen.
    public func fitRect(of index: Int) -> Rect {
        guard index >= 0, index < photoSizes.count else { return screen }
        return screen.aspectFit(photoSizes[index])
    }

    /// Photo `index` on screen now: its neighbours beside it, the current one at its zoom.
    public func pageRect(of index: Int) -> Rect {
        let base = index == currentIndex ? zoomedRect : fitRect(of: index)
        return base.offsetBy(dx: Double(index - currentIndex) * pageWidth + pageOffset, dy: 0)
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

    public var zoomScale: Double {
        let fit = fitRect(of: currentIndex)
        return fit.width > 0 ? zoomedRect.width / fit.width : 1
    }

    public var isZoomed: Bool { zoomScale > 1.001 || zoomAnimation != nil }

    /// At rest at 1x and not between pages: a downward drag may dismiss.
    public var canDismiss: Bool { !isZoomed && settle == nil && abs(pageOffset) < 0.5 }

    public var isAnimating: Bool { settle != nil || zoomAnimation != nil }

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
        zoomedRect = fitRect(of: currentIndex)
    }

    /// The library changed; the current photo stays as it is if it kept its index and size.
    func setPhotoSizes(_ sizes: [Size], currentIndex index: Int) {
        let unchanged = index == currentIndex && index < sizes.count && index < photoSizes.count
            && sizes[index] == photoSizes[index]
        photoSizes = sizes
        if !unchanged { show(index) }
    }

    func update(to time: Double) {
        if let animation = settle {
            pageOffset = animation.value(at: time)[0]
            if animation.isFinished(at: time) { settle = nil }
        }
        if let animation = zoomAnimation {
            zoomedRect = Self.rect(animation.value(at: time))
            if animation.isFinished(at: time) { zoomAnimation = nil }
        }
    }

    /// A finger touched down: whatever moves stops where it is.
    func hold(at time: Double) {
        update(to: time)
        settle = nil
        zoomAnimation = nil
    }

    /// A touch that did nothing lifted: finish what it stopped.
    func release(at time: Double) {
        settleOffset(velocity: 0, at: time)
        settleZoom(about: zoomedRect.center, at: time)
    }

    // MARK: Paging

    func beginDrag() {
        dragStartOffset = pageOffset
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

    /// Makes `index` current while the pages stay where they are on screen.
    private func move(to index: Int, direction: Int) {
        currentIndex = index
        pageOffset += Double(direction) * pageWidth
        zoomedRect = fitRect(of: index)
        zoomAnimation = nil
    }

    private func settleOffset(velocity: Double, at time: Double) {
        guard abs(pageOffset) > 0.01 else {
            pageOffset = 0
            settle = nil
            return
        }
        // Critically damped (SPEC §1).
        settle = .spring(from: [pageOffset], to: [0], velocity: [velocity], startTime: time,
                         duration: parameters.settleDuration, dampingRatio: 1)
    }

    // MARK: Zoom

    func beginPinch() {
        gestureStartRect = zoomedRect
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
        settleZoom(about: center, at: time)
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

    func beginPan() {
        gestureStartRect = zoomedRect
    }

    /// A zoomed photo follows the finger, clamped so its edges never come inside the screen.
    func pan(translation: Point) {
        zoomedRect = clampedToScreen(gestureStartRect.offsetBy(dx: translation.x, dy: translation.y))
    }

    /// Springs a zoom outside 1x...max_zoom back into range about `center`.
    private func settleZoom(about center: Point, at time: Double) {
        let scale = zoomScale
        let target = min(max(scale, 1), parameters.maxZoom)
        let fit = fitRect(of: currentIndex)
        let goal = target <= 1.001 ? fit : clampedToScreen(Self.scaled(zoomedRect, about: center, by: target / scale))
        if goal != zoomedRect { animateZoom(to: goal, at: time) }
    }

    private func animateZoom(to target: Rect, at time: Double) {
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
