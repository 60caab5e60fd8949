import Animation
import Geometry
import Gestures
import Touch

/// The iOS Photos interaction as a pure state machine (SPEC §1): touch frames and keys go in,
/// `SceneFrame`s come out, and time is always passed in (CLOCK_MONOTONIC or virtual time).
///
/// The grid and the pager never know about each other: the transitions between them (opening,
/// dismissing, closing) ask both for a photo's frame on screen and hide their copies while they
/// carry it.
public final class Scene {
    /// What the app tells `setPhotoSizes` about the photo that is open.
    public enum OpenPhotoChange: Equatable, Sendable {
        /// It keeps its index (or is gone if that index no longer exists).
        case unchanged
        case movedTo(Int)
        case removed
    }

    public let parameters: SceneParameters
    public let screenSize: Size
    public private(set) var photoSizes: [Size]
    public let grid: GridView
    public let pager: PagerView

    private enum State {
        case grid
        case opening(ZoomTransition)
        case pager
        case dismissing(DismissTransition)
        case closing(ZoomTransition)
        case slideshow(Slideshow)
    }

    /// What the current touch sequence drives, decided at touch-down (and for the pager, once the
    /// finger has moved far enough to tell a page from a dismissal).
    private enum TouchOwner {
        case none
        /// `stoppedScroll`: it landed on moving content, so it is not a tap.
        case grid(stoppedScroll: Bool)
        case pagerUndecided
        case paging
        case panningZoomed
        case pinching
        /// A pinch at 1x that went below 1: pinch to close.
        case pinchDismiss
        case dismiss
        /// Landed during a transition away from the photo, or outlived its purpose: never queued.
        case ignored
    }

    private var state = State.grid
    /// The current page held still under one finger for `SceneParameters.holdDuration` (SPEC §12),
    /// at 1x and at rest, until the finger lifts, moves past the tap slop or a second finger lands;
    /// nil otherwise. A finger at rest sends no events: `frame(at:)`, sampled at every vblank while a
    /// finger is down, sees the time pass as the touch frames do.
    public internal(set) var pageHold: PageHold?
    /// The touch that may become a hold: the page it landed on, and when.
    private var holdCandidate: (index: Int, downTime: Double)?
    /// This touch, and the one before it, became a hold: neither makes a double tap (with a tap
    /// timeout longer than the hold, the recognizer would call its lift a tap).
    private var touchHeld = false
    private var previousTouchHeld = false
    private var owner = TouchOwner.none
    private var recognizer: GestureRecognizer
    private var lastOpenedIndex: Int?
    /// Set by `returnToStart`: the grid goes back to its first row once the closing has ended.
    private var scrollsToTopAfterClosing = false
    private var now = -Double.infinity
    /// `advanceSlideshow` from the grid: the opening ends in the slideshow, its first slide's Ken
    /// Burns running until this time (the end of the next transition).
    private var slideshowAfterOpening: Double?
    /// Per photo index, which picture of its content is shown (`setContentVersion`).
    private var contentVersions: [Int: Int] = [:]

    public init(parameters: SceneParameters = SceneParameters(), screenSize: Size, photoSizes: [Size]) {
        self.parameters = parameters
        self.screenSize = screenSize
        self.photoSizes = photoSizes
        grid = GridView(parameters: parameters.grid, screenSize: screenSize, photoCount: photoSizes.count)
        pager = PagerView(parameters: parameters.pager, scrolling: parameters.grid, screenSize: screenSize,
                          photoSizes: photoSizes)
        recognizer = GestureRecognizer(configuration: parameters.gestures)
    }

    private var screen: Rect { Rect(origin: .zero, size: screenSize) }

    // MARK: Queries

    public var mode: SceneMode {
        switch state {
        case .grid: .grid
        case .opening: .opening
        case .pager: .pager
        case .dismissing: .dismissing
        case .closing: .closing
        case .slideshow: .slideshow
        }
    }

    /// The photo shown, carried, or (in the grid) last opened; nil before any was opened.
    public var currentIndex: Int? {
        switch state {
        case .grid: lastOpenedIndex
        case .pager: pager.currentIndex
        case let .opening(transition): transition.index
        case let .dismissing(transition): transition.index
        case let .closing(transition): transition.index
        case let .slideshow(show): show.currentIndex
        }
    }

    /// True while anything would move without input: the loop needs no frames when this is false
    /// and no finger is down.
    public var isAnimating: Bool {
        let transitionMoves: Bool
        switch state {
        case .opening, .closing: transitionMoves = true
        case let .dismissing(transition): transitionMoves = !transition.isDragging
        case let .slideshow(show): transitionMoves = show.isAnimating
        case .grid, .pager: transitionMoves = false
        }
        return transitionMoves || grid.isMoving || pager.isAnimating
    }

    /// True while a finger is down.
    public var isTouching: Bool { recognizer.isTouching }

    /// The scene at `time` (nondecreasing): animations are advanced to it and finished ones end.
    public func frame(at time: Double) -> SceneFrame {
        advance(to: time)
        let t = now
        var alpha = 0.0
        var pages: [PhotoPlacement] = []
        var moving: PhotoPlacement?
        switch state {
        case .grid:
            break
        case .pager:
            alpha = 1
            pages = pager.visiblePages()
        case let .slideshow(show):
            alpha = 1
            pages = show.pages(at: t)
        case let .opening(transition):
            alpha = transition.alpha(at: t)
            moving = PhotoPlacement(index: transition.index, rect: transition.rect(at: t))
        case let .dismissing(transition):
            alpha = transition.alpha(at: t)
            moving = PhotoPlacement(index: transition.index, rect: transition.rect(at: t))
        case let .closing(transition):
            alpha = transition.alpha(at: t)
            moving = PhotoPlacement(index: transition.index, rect: transition.rect(at: t))
        }
        var frame = SceneFrame(time: t, mode: mode, currentIndex: currentIndex, gridScroll: grid.offset,
                               drawsGrid: alpha < 1, gridCells: grid.visibleCells(), hiddenIndex: grid.hiddenIndex,
                               backgroundAlpha: alpha, pages: pages, movingPhoto: moving)
        if !contentVersions.isEmpty { stampContentVersions(&frame) }
        updateHold()
        return frame
    }

    /// Photo `index` shows another picture of its content from now on (a clip's next frame): the
    /// frames that show it carry `version`, so they differ from the one on screen even at rest.
    public func setContentVersion(_ version: Int, of index: Int) {
        contentVersions[index] = version == 0 ? nil : version
    }

    /// The cells only where the grid shows: under the pager's black their versions change nothing.
    private func stampContentVersions(_ frame: inout SceneFrame) {
        for i in frame.gridCells.indices where frame.drawsGrid { frame.gridCells[i].contentVersion = contentVersions[frame.gridCells[i].index] ?? 0 }
        for i in frame.pages.indices { frame.pages[i].contentVersion = contentVersions[frame.pages[i].index] ?? 0 }
        if let index = frame.movingPhoto?.index { frame.movingPhoto?.contentVersion = contentVersions[index] ?? 0 }
    }

    // MARK: Input

    /// The whole contact set at `frame.time` (nondecreasing).
    public func handle(_ frame: TouchFrame) {
        advance(to: frame.time)
        for event in recognizer.handle(frame) {
            handle(event, at: now)
        }
        // A second finger (even one too close to the first to make a pinch) or the lift.
        if frame.contacts.count != 1 { clearHold() }
        updateHold()
    }

    /// Esc or Back: zoom out to the grid.
    public func handleBack(at time: Double) {
        close(at: time)
    }

    /// The kiosk's idle return (`kiosk.idle_action = "grid"`): the open photo zooms back into its
    /// cell with the closing bezier, then the grid is back at its first row.
    public func returnToStart(at time: Double) {
        close(at: time)
        if case .closing = state {
            scrollsToTopAfterClosing = true
        } else if case .grid = state, !recognizer.isTouching {
            grid.scrollToTop()
        }
    }

    /// Closing time (opening hours): whatever is open is back in its grid cell at once, with no
    /// animation, and the grid at its first row; a finger that is down stops counting. Nothing is
    /// drawn while closed, and the kiosk opens again on its first screen.
    public func resetToGrid(at time: Double) {
        advance(to: time)
        if case .grid = state {} else { lastOpenedIndex = currentIndex }
        slideshowAfterOpening = nil
        endTouch()
        state = .grid
        scrollsToTopAfterClosing = false
        grid.setHidden(nil)
        pager.setHidden(nil)
        grid.jumpToTop()
    }

    /// Zoom out to the grid with the closing bezier (the key, or the idle timeout). A finger that is
    /// down stops counting; a photo already flying to the grid keeps flying.
    public func close(at time: Double) {
        advance(to: time)
        let index: Int, rect: Rect, alpha: Double
        switch state {
        case .grid, .closing:
            return
        case .pager:
            index = pager.currentIndex
            rect = pager.frame(of: index) ?? screen
            alpha = 1
        case let .slideshow(show):
            let photo = show.photo(at: nil, time: now)
            (index, rect, alpha) = (photo.index, photo.rect, 1)
        case let .opening(transition):
            (index, rect, alpha) = (transition.index, transition.rect(at: now), transition.alpha(at: now))
        case let .dismissing(transition):
            if transition.outcome == .finish { return }
            (index, rect, alpha) = (transition.index, transition.rect(at: now), transition.alpha(at: now))
        }
        // A photo caught on the way gets a pager at rest to cancel back to.
        pager.show(index)
        grid.scrollToShow(index)
        state = .closing(ZoomTransition.closing(index, rect: rect, alpha: alpha, to: grid, from: pager,
                                                duration: parameters.closeDuration, time: now))
        if recognizer.isTouching { owner = .ignored }
        clearHold()
    }

    /// Opens photo `index` from its grid cell, as a tap on it does.
    public func open(_ index: Int, at time: Double) {
        advance(to: time)
        guard case .grid = state, index >= 0, index < photoSizes.count else { return }
        pager.show(index)
        lastOpenedIndex = index
        slideshowAfterOpening = nil
        state = .opening(ZoomTransition.opening(index, from: grid, to: pager, screen: screen,
                                                spring: parameters.open, time: now))
    }

    /// The remote's "next": the pager pages to the next photo (the first after the last); from the
    /// grid the photo after the last opened one opens; the slideshow hands its photo to the pager
    /// first. Nothing happens while a finger is down or a transition runs.
    public func showNext(at time: Double) {
        advance(to: time)
        guard !photoSizes.isEmpty, !recognizer.isTouching else { return }
        leaveSlideshow()
        switch state {
        case .pager:
            let next = (pager.currentIndex + 1) % photoSizes.count
            guard next != pager.currentIndex else { return }
            pager.advance(to: next, at: now)
            currentPhotoChanged(to: next)
        case .grid:
            let next = lastOpenedIndex.map { ($0 + 1) % photoSizes.count } ?? 0
            grid.scrollToShow(next)
            open(next, at: now)
        default:
            return
        }
    }

    /// The remote's "previous": the pager pages back (the last after the first); from the grid the
    /// photo before the last opened one opens. Nothing happens while a finger is down or a
    /// transition runs.
    public func showPrevious(at time: Double) {
        advance(to: time)
        guard !photoSizes.isEmpty, !recognizer.isTouching else { return }
        leaveSlideshow()
        switch state {
        case .pager:
            let previous = (pager.currentIndex + photoSizes.count - 1) % photoSizes.count
            guard previous != pager.currentIndex else { return }
            pager.advance(to: previous, direction: -1, at: now)
            currentPhotoChanged(to: previous)
        case .grid:
            show(lastOpenedIndex.map { ($0 + photoSizes.count - 1) % photoSizes.count } ?? photoSizes.count - 1, at: now)
        default:
            return
        }
    }

    /// The remote's "open": photo `index` opens from the grid, or the pager pages to it.
    public func show(_ index: Int, at time: Double) {
        advance(to: time)
        guard index >= 0, index < photoSizes.count, !recognizer.isTouching else { return }
        leaveSlideshow()
        switch state {
        case .pager:
            guard index != pager.currentIndex else { return }
            pager.advance(to: index, direction: index > pager.currentIndex ? 1 : -1, at: now)
            currentPhotoChanged(to: index)
        case .grid:
            grid.scrollToShow(index)
            open(index, at: now)
        default:
            return
        }
    }

    /// The kiosk's slideshow (`kiosk.idle_action = "slideshow"`, every `interval` seconds): the next
    /// slide comes in (`SceneParameters.Slideshow`, `Slideshow`). From the pager the slideshow starts
    /// on the photo shown, which goes as the next comes; from the grid the photo after the last
    /// opened one zooms open and the slideshow goes on from it. Nothing happens while a finger is
    /// down or another transition runs. A touch ends it: the pager takes the photo touched (the
    /// incoming one mid-transition) as it is on screen, and the touch goes on there; so does the
    /// remote's next, previous or open, which then pages as in the pager.
    public func advanceSlideshow(at time: Double, interval: Double) {
        advance(to: time)
        guard !photoSizes.isEmpty, !recognizer.isTouching else { return }
        let show: Slideshow
        let count = photoSizes.count
        switch state {
        case .grid:
            let index = lastOpenedIndex.map { ($0 + 1) % count } ?? 0
            grid.scrollToShow(index)
            open(index, at: now)
            slideshowAfterOpening = now + interval + Slideshow.duration(parameters, interval: interval)
            return
        case .pager:
            guard count > 1 else { return }
            let index = pager.currentIndex
            show = Slideshow(.still(index, rect: pager.frame(of: index) ?? screen, screen: screen),
                             parameters: parameters, screen: screen)
            state = .slideshow(show)
        case let .slideshow(running):
            show = running
        default:
            return
        }
        let next = ((show.slide.indices.last ?? 0) + 1) % count
        show.advance(to: slide(startingAt: next), interval: interval, at: now)
        currentPhotoChanged(to: next)
    }

    private func slide(startingAt index: Int, pairs: Bool? = nil) -> Slide {
        Slide.starting(at: index, photoSizes: photoSizes, screen: screen,
                       pairs: pairs ?? parameters.slideshow.portraitPairs, spacing: parameters.pager.pageSpacing)
    }

    /// The slideshow hands its photo `photo` over to the pager, as it is on screen.
    private func endSlideshow(on photo: (index: Int, rect: Rect, offset: Double)) {
        pager.takeOver(photo.index, rect: photo.rect.offsetBy(dx: -photo.offset, dy: 0), offset: photo.offset, at: now)
        state = .pager
        currentPhotoChanged(to: photo.index)
    }

    /// The pager takes the slideshow's current photo (the remote, the library changed).
    private func leaveSlideshow() {
        if case let .slideshow(show) = state { endSlideshow(on: show.photo(at: nil, time: now)) }
    }

    /// The library changed. The grid keeps its scroll position; if the open photo is gone the scene
    /// is back in the grid at once.
    public func setPhotoSizes(_ sizes: [Size], openPhoto change: OpenPhotoChange = .unchanged) {
        leaveSlideshow()
        slideshowAfterOpening = nil
        let count = sizes.count
        let openIndex: Int? = if case .grid = state { nil } else { currentIndex }
        var newIndex: Int?
        switch change {
        case .unchanged: newIndex = openIndex
        case let .movedTo(index): newIndex = index
        case .removed: newIndex = nil
        }
        if let index = newIndex, index < 0 || index >= count { newIndex = nil }
        photoSizes = sizes
        // Indices name other photos now; their content tells its versions again.
        contentVersions = [:]
        // A hold lasts while its page stays the current one.
        defer { updateHold() }
        grid.setPhotoCount(count)

        if case .grid = state {
            if case let .movedTo(index) = change, index >= 0, index < count {
                lastOpenedIndex = index
            } else if let last = lastOpenedIndex {
                lastOpenedIndex = count > 0 ? min(last, count - 1) : nil
            }
            pager.setPhotoSizes(sizes, currentIndex: lastOpenedIndex ?? 0)
            return
        }
        guard let index = newIndex else {
            // The open photo is gone: nothing left to carry back.
            lastOpenedIndex = count > 0 ? min(openIndex ?? 0, count - 1) : nil
            endTouch()
            state = .grid
            grid.setHidden(nil)
            pager.setHidden(nil)
            pager.setPhotoSizes(sizes, currentIndex: lastOpenedIndex ?? 0)
            return
        }
        lastOpenedIndex = index
        if index != openIndex {
            // A transition carries the old index: land it in the pager.
            if case .pager = state {} else {
                endTouch()
                grid.setHidden(nil)
                pager.setHidden(nil)
                state = .pager
            }
            grid.scrollToShow(index)
        }
        pager.setPhotoSizes(sizes, currentIndex: index)
    }

    // MARK: Internals

    /// Brings every animation to `time` and ends the transitions that are over.
    private func advance(to time: Double) {
        now = max(now, time)
        grid.update(to: now)
        pager.update(to: now)
        switch state {
        case let .opening(transition) where transition.isFinished(at: now):
            transition.end()
            state = .pager
            if let until = slideshowAfterOpening {
                // The opened photo is the first slide, alone (a pair would jump from its fit).
                let show = Slideshow(slide(startingAt: transition.index, pairs: false), parameters: parameters, screen: screen)
                show.startMotion(at: now, until: until)
                state = .slideshow(show)
                slideshowAfterOpening = nil
            }
        case let .slideshow(show):
            show.update(to: now)
        case let .closing(transition) where transition.isFinished(at: now):
            transition.end()
            state = .grid
            if scrollsToTopAfterClosing {
                scrollsToTopAfterClosing = false
                grid.scrollToTop()
            }
        case let .dismissing(transition) where transition.isFinished(at: now):
            transition.end()
            state = transition.outcome == .finish ? .grid : .pager
        default:
            break
        }
    }

    /// The finger that is down no longer drives anything.
    private func endTouch() {
        owner = recognizer.isTouching ? .ignored : .none
        clearHold()
    }

    /// The hold begins once the finger has rested for the hold duration, while the touch still
    /// drives nothing but the page it landed on, at 1x.
    private func updateHold() {
        guard let candidate = holdCandidate else { return }
        guard case .pager = state, case .pagerUndecided = owner, !pager.isZoomed,
              pager.currentIndex == candidate.index else {
            clearHold()
            return
        }
        let time = candidate.downTime + SceneParameters.holdDuration
        if pageHold == nil, now >= time {
            pageHold = PageHold(index: candidate.index, time: time)
            touchHeld = true
        }
    }

    private func clearHold() {
        holdCandidate = nil
        pageHold = nil
    }

    private func currentPhotoChanged(to index: Int) {
        lastOpenedIndex = index
        grid.scrollToShow(index)
    }

    private func handle(_ event: GestureEvent, at time: Double) {
        switch event {
        case let .down(point):
            touchDown(at: point, time: time)
        case let .panBegan(pan), let .panChanged(pan):
            // Past the tap slop: a drag, never a hold.
            clearHold()
            move(pan, at: time)
        case let .panEnded(pan):
            release(velocity: pan.velocity, at: time)
        case let .tap(point):
            tap(at: point, time: time)
        case let .doubleTap(point):
            // In the grid the second tap is a tap of its own (the first may have stopped a scroll).
            if case .grid = owner { tap(at: point, time: time) }
            if case .pagerUndecided = owner, case .pager = state, !touchHeld, !previousTouchHeld {
                owner = .none
                pager.toggleZoom(at: point, at: time)
            }
        case .pinchBegan:
            clearHold()
            if case .pagerUndecided = owner, case .pager = state {
                owner = .pinching
                pager.beginPinch()
            }
        case let .pinchChanged(pinch):
            switch owner {
            case .pinching where pinch.scale < 1 && pager.pinchStartedAtFit:
                beginPinchDismissal(pinch)
            case .pinching:
                pager.pinch(startCenter: pinch.startCenter, center: pinch.center, scale: pinch.scale)
            case .pinchDismiss:
                if case let .dismissing(transition) = state { transition.pinch(center: pinch.center, scale: pinch.scale) }
            default:
                break
            }
        case let .pinchEnded(pinch):
            switch owner {
            case .pinching:
                pager.endPinch(center: pinch.center, at: time)
                owner = .ignored
            case .pinchDismiss:
                if case let .dismissing(transition) = state, transition.isDragging {
                    grid.scrollToShow(transition.index)
                    transition.release(centerVelocity: pinch.centerVelocity, scaleVelocity: pinch.scaleVelocity,
                                       at: time)
                }
                owner = .ignored
            default:
                break
            }
        case let .up(_, velocity):
            release(velocity: velocity, at: time)
            owner = .none
            clearHold()
            previousTouchHeld = touchHeld
            touchHeld = false
        }
    }

    private func tap(at point: Point, time: Double) {
        guard case .grid(stoppedScroll: false) = owner, case .grid = state else { return }
        grid.endDrag(velocityY: 0, at: time)
        owner = .none
        if let index = grid.index(at: point) { open(index, at: time) }
    }

    private func touchDown(at point: Point, time: Double) {
        slideshowAfterOpening = nil
        switch state {
        case let .slideshow(show):
            endSlideshow(on: show.photo(at: point, time: time))
            touchDown(at: point, time: time)
        case .grid:
            let wasMoving = grid.isMoving
            grid.beginDrag(fingerY: point.y)
            owner = .grid(stoppedScroll: wasMoving)
        case .pager:
            pager.hold(at: time)
            owner = .pagerUndecided
            // On the page's picture, at rest at 1x: a hold if it rests long enough.
            if pager.canDismiss, pager.frame(of: pager.currentIndex)?.contains(point) == true {
                holdCandidate = (pager.currentIndex, time)
            }
        case let .opening(transition):
            catchPhoto(transition.index, rect: transition.rect(at: time), alpha: transition.alpha(at: time),
                       finger: point)
        case let .closing(transition):
            catchPhoto(transition.index, rect: transition.rect(at: time), alpha: transition.alpha(at: time),
                       finger: point)
        case let .dismissing(transition):
            if transition.isDragging {
                owner = .ignored
            } else {
                catchPhoto(transition.index, rect: transition.rect(at: time), alpha: transition.alpha(at: time),
                           finger: point)
            }
        }
    }

    /// A touch on the moving photo stops it where it is and drags it from there (SPEC §1,
    /// Interruptions); a touch anywhere else during a transition is ignored.
    private func catchPhoto(_ index: Int, rect: Rect, alpha: Double, finger: Point) {
        guard rect.contains(finger) else {
            owner = .ignored
            return
        }
        state = .dismissing(DismissTransition(index: index, rect: rect, alpha: alpha, finger: finger,
                                              grid: grid, pager: pager, parameters: parameters.dismiss))
        owner = .dismiss
    }

    /// Pinch to close (SPEC §1): a pinch that began at 1x goes below 1 and becomes a dismissal,
    /// the photo scaled about the pinch's centre from its frame when the second finger touched down.
    private func beginPinchDismissal(_ pinch: Pinch) {
        let index = pager.currentIndex
        pager.show(index)  // it was at rest at 1x when the pinch began; a zoom above 1 on the way is undone
        grid.scrollToShow(index)
        let transition = DismissTransition(index: index, rect: pager.frame(of: index) ?? screen,
                                           pinchCenter: pinch.startCenter, grid: grid, pager: pager,
                                           parameters: parameters.dismiss)
        transition.pinch(center: pinch.center, scale: pinch.scale)
        state = .dismissing(transition)
        owner = .pinchDismiss
    }

    private func move(_ pan: Pan, at time: Double) {
        switch owner {
        case .grid:
            grid.drag(fingerY: pan.location.y)
        case .pagerUndecided:
            let d = pan.translation
            if pager.isZoomed {
                // The first movement past the slop: at a side edge and towards the neighbour it pages.
                if pager.handsOverToPaging(firstMove: d) {
                    owner = .paging
                    pager.beginDrag()
                    pager.drag(dx: d.x)
                } else {
                    owner = .panningZoomed
                    pager.beginPan()
                    pager.pan(translation: d, at: time)
                }
                return
            }
            guard (d.x * d.x + d.y * d.y).squareRoot() > parameters.dismiss.startDistance else { return }
            if d.y > abs(d.x), pager.canDismiss {
                let index = pager.currentIndex
                grid.scrollToShow(index)
                let transition = DismissTransition(index: index, rect: pager.frame(of: index) ?? screen, alpha: 1,
                                                   finger: pan.start, grid: grid, pager: pager,
                                                   parameters: parameters.dismiss)
                transition.drag(to: pan.location)
                state = .dismissing(transition)
                owner = .dismiss
            } else {
                owner = .paging
                pager.beginDrag()
                pager.drag(dx: d.x)
            }
        case .paging:
            pager.drag(dx: pan.translation.x)
        case .panningZoomed:
            // Reaching a side edge mid-pan, it pages from there.
            if pager.pan(translation: pan.translation, at: time) { owner = .paging }
        case .dismiss:
            if case let .dismissing(transition) = state { transition.drag(to: pan.location) }
        case .none, .pinching, .pinchDismiss, .ignored:
            break
        }
    }

    /// The finger lifted (or a pan ended) moving at `velocity`.
    private func release(velocity: Point, at time: Double) {
        switch owner {
        case .grid:
            grid.endDrag(velocityY: velocity.y, at: time)
        case .pagerUndecided:
            pager.release(at: time)
        case .panningZoomed:
            pager.endPan(velocity: velocity, at: time)
        case .paging:
            if let index = pager.endDrag(velocityX: velocity.x, at: time) { currentPhotoChanged(to: index) }
        case .dismiss:
            if case let .dismissing(transition) = state, transition.isDragging {
                grid.scrollToShow(transition.index)
                transition.release(velocity: velocity, at: time)
            }
        case .none, .pinching, .pinchDismiss, .ignored:
            break
        }
        owner = .none
    }
}
