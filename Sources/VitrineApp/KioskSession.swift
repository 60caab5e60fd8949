import Config
import Photos
import RemoteControl
import Rendering
import RunLoopRules
import Scene

/// The app's behaviour in time, shared by `run` and `simulate`: the viewer (scene, photos,
/// renderer) under the frame scheduler and the kiosk policy. Events go in (`dispatch`: input, the
/// time, a transport's action); the frames to draw and the effects on the display come out. `run`
/// drives it from epoll and CLOCK_MONOTONIC, `simulate` from a recording and virtual time, so both
/// draw the same frames. It is the one place where a kiosk decision is made.
final class KioskSession {
    enum Step {
        /// Nothing to draw now.
        case none
        /// Ask again at this time (the frame-rate limit).
        case wait(until: Double)
        /// Draw this frame, then call `presented`.
        case draw(SceneFrame, moving: Bool)
    }

    private(set) var viewer: Viewer
    private var scheduler: FrameScheduler
    /// Which touches each frame shows, for their latency (SPEC §13).
    private var touchLatency = TouchLatency()
    private var policy: KioskPolicy
    private var onScreen: SceneFrame?
    /// Why the screen is off when it is ("idle", "remote"): what STATUS= says.
    private var blankedBy = "idle"
    private var fingersDown = false
    private var lastShown: Int?
    /// Touches (a first finger down) since start, whatever they did.
    private(set) var touches = 0
    /// Times a photo became the one shown (opened or paged to), by whatever asked.
    private(set) var photosShown = 0
    /// Clip frames shown and passed over by the viewers before this one (a reload replaces it).
    private var earlierClipFrames = (shown: 0, dropped: 0)
    var clipFramesShown: Int { earlierClipFrames.shown + viewer.clips.framesShown }
    var clipFramesDropped: Int { earlierClipFrames.dropped + viewer.clips.framesDropped }

    /// `zone`: the opening hours' time zone.
    init(viewer: Viewer, settings: Settings, refreshPeriod: Double, now: Double, zone: LocalZone) {
        self.viewer = viewer
        scheduler = FrameScheduler(refreshPeriod: refreshPeriod)
        policy = KioskPolicy(parameters: settings.kiosk, now: now, zone: zone)
    }

    /// The display is on and frames are drawn (not blanked, not closed by the opening hours).
    var isScreenOn: Bool { policy.isScreenOn }
    var isClosed: Bool { policy.isClosed }
    /// When `tick` next has something to do; nil: only input changes anything.
    var nextDeadline: Double? { policy.nextDeadline }
    /// When the opening hours next open or close, on the wall clock (seconds since the epoch).
    var nextScheduleChange: Int? { policy.nextScheduleChange }
    /// "closed until Mon 09:00" while the opening hours say closed.
    func closedStatus(wall: Double) -> String? { policy.closedStatus(wall: wall) }

    /// New settings or a new screen: a new viewer, drawn from scratch.
    func replaceViewer(_ viewer: Viewer, settings: Settings) {
        earlierClipFrames = (clipFramesShown, clipFramesDropped)
        self.viewer.clips.stop()
        self.viewer = viewer
        policy.parameters = settings.kiosk
        onScreen = nil
        scheduler.forceRedraw()
    }

    /// The library changed: the grid updates in place.
    func replaceItems(_ items: [LibraryItem], now: Double) {
        viewer.replaceItems(items, at: sceneTime(now: now))
        scheduler.forceRedraw()
    }

    /// When the wall-clock timer is to ring next (seconds since the epoch), as of `wall`: the opening
    /// hours' next change, or a far horizon so that the clock being set is still heard; nil when
    /// always open.
    func wallClockAlarm(wall: Double) -> Double? {
        guard !policy.parameters.openingHours.isAlwaysOpen else { return nil }
        return nextScheduleChange.map(Double.init) ?? wall + 400 * 86400
    }

    /// The time at which something happening `now` is applied to the scene.
    func sceneTime(now: Double) -> Double { scheduler.sceneTime(now: now) }

    /// What STATUS= says about the screen at `wall`.
    func screenState(wall: Double) -> ServiceStatus.State {
        if let closed = closedStatus(wall: wall) {
            return .closed(isScreenOn ? closed + " (on for a touch)" : closed)
        }
        return isScreenOn ? .showing : .displayOff(blankedBy)
    }

    /// Everything that happens to the kiosk goes through here: `event` at `now` (`wall` on the wall
    /// clock). The policy decides first; each action, whoever decided it, is then applied to the
    /// scene, and what is left for the display comes back. A touch that only wakes the screen never
    /// reaches the scene.
    @discardableResult
    func dispatch(_ event: KioskEvent, now: Double, wall: Double) -> [KioskEffect] {
        var actions: [KioskAction] = []
        switch event {
        case .input(let input):
            let (verdict, decided): (KioskPolicy.Verdict, [KioskPolicy.Action])
            switch input {
            case .touch(let frame):
                if frame.contacts.count > 0, !fingersDown { touches += 1 }
                fingersDown = frame.contacts.count > 0
                (verdict, decided) = policy.touch(contacts: frame.contacts.count, at: now)
            case .back:
                (verdict, decided) = policy.key(at: now)
            }
            let effects = perform(decided.map { KioskAction($0, by: .input) }, now: now, wall: wall)
            if verdict == .deliver { deliver(input) }
            return effects
        case .time:
            actions = policy.tick(at: now, wall: wall).map { KioskAction($0, by: .idle) }
        case .remote(let action):
            // "screen_off" blanks as the idle time would; the others but "reload" count as input:
            // they wake a blanked screen and restart the idle time.
            switch action {
            case .screenOff: actions = policy.blank().map { KioskAction($0, by: .remote) }
            case .reload: break
            default: actions = policy.key(at: now).1.map { KioskAction($0, by: .remote) }
            }
            actions += [KioskAction(action)].compactMap { $0 }
            scheduler.forceRedraw()
        }
        return perform(actions, now: now, wall: wall)
    }

    /// Input to the scene. A touch frame that changes the picture (the scene at the frame's time
    /// before and after it: exact, and cheap, as `handle` advances the scene to that time anyway)
    /// is noted for its latency.
    private func deliver(_ input: SceneInput) {
        guard case .touch(let touch) = input else { return viewer.handle(input) }
        let scene = viewer.scene
        let before = scene.frame(at: touch.time)
        viewer.handle(input)
        if !scene.frame(at: touch.time).showsSamePicture(as: before) { touchLatency.noteTouch(at: touch.time) }
    }

    /// `dispatch` while `run` waits for a display: there is no session, so nothing on screen to act
    /// on; only "reload" has its work to do.
    static func dispatchWithoutScreen(_ event: KioskEvent) -> [KioskEffect] {
        guard case .remote(let action) = event else { return [] }
        guard action.needsScreen else { return [.reload] }
        return [.ignored("remote: \(action.name) has nothing to act on while waiting for a display")]
    }

    /// The one switch over what the kiosk does: the scene's part here, the display's returned.
    private func perform(_ actions: [KioskAction], now: Double, wall: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        for action in actions {
            let time = sceneTime(now: now)
            let scene = viewer.scene
            switch action {
            case .returnToGrid: scene.returnToStart(at: time)
            case .nextSlide: scene.advanceSlideshow(at: time, interval: policy.parameters.slideshowInterval)
            case .showNext: scene.showNext(at: time)
            case .showPrevious: scene.showPrevious(at: time)
            case .show(let index): scene.show(index, at: time)
            case .closePhoto: scene.close(at: time)
            case .closing:
                touchLatency.discardAll()
                scene.resetToGrid(at: time)
                let closed = closedStatus(wall: wall) ?? "closed"
                effects.append(.screenOff(log: "opening hours: \(closed); ", status: screenState(wall: wall)))
            case .opening:
                scene.resetToGrid(at: time)
                effects.append(.screenOn(log: "opening hours: open; display on", status: screenState(wall: wall)))
            case .screenOff(let cause):
                touchLatency.discardAll()
                blankedBy = cause == .remote ? "remote" : "idle"
                let log = cause == .remote ? "remote: " : "idle for \(Int(policy.parameters.blankAfter)) s: "
                effects.append(.screenOff(log: log, status: screenState(wall: wall)))
            case .screenOn(let cause):
                let log = cause == .remote ? "remote: display on"
                    : isClosed ? "touch while closed: display on for \(Int(policy.parameters.touchWakes)) s" : "touch: display on"
                effects.append(.screenOn(log: log, status: screenState(wall: wall)))
            case .reload:
                effects.append(.reload)
            }
            scheduler.forceRedraw()
        }
        return effects
    }

    /// Something outside the scene changed what the screen shows (the library, the display came
    /// back): the next frame is drawn whatever the scene says.
    func forceRedraw() { scheduler.forceRedraw() }

    /// A decode worker woke the loop: a photo's pixels arrived (the next frame may look different),
    /// or a clip's frame did (it shows when it is due: `nextStep` asks when that is).
    /// A file whose decode refused it leaves the items (as one the scan refuses never joins them):
    /// those are returned, for the count of photos and of skips.
    @discardableResult
    func imagesArrived(now: Double) -> [PhotoError] {
        if viewer.takePhotosDecoded() { scheduler.noteImagesArrived() }
        return dropRefused(now: now)
    }

    /// The files refused by their decode since the last call leave the items (`Viewer.dropRefused`).
    @discardableResult
    func dropRefused(now: Double) -> [PhotoError] {
        let refused = viewer.dropRefused(at: sceneTime(now: now))
        if !refused.isEmpty { scheduler.forceRedraw() }
        return refused
    }

    /// What to do about drawing at `now`; `nextVblank` is when a flip queued now would be shown.
    func nextStep(now: Double, flipPending: Bool, nextVblank: Double) -> Step {
        guard policy.isScreenOn else { return .none }
        let moving = viewer.scene.isAnimating || viewer.scene.isTouching
        switch scheduler.decide(now: now, moving: moving, flipPending: flipPending, nextVblank: nextVblank,
                                nextChange: viewer.clips.nextChange) {
        case .sleep, .awaitFlip:
            return .none
        case .wait(let time):
            return .wait(until: time)
        case .sample(let time):
            let frame = viewer.frame(at: time)
            touchLatency.frameSampled()
            guard scheduler.mustDraw(sceneChanged: !frame.showsSamePicture(as: onScreen)) else {
                touchLatency.frameNotDrawn()
                return .none
            }
            return .draw(frame, moving: moving)
        }
    }

    /// `frame` went to the display (its flip queued), drawing started at `start` and took
    /// `composeTime`. Returns the vblanks it missed.
    func presented(_ frame: SceneFrame, at start: Double, composeTime: Double, moving: Bool) -> Int {
        touchLatency.frameQueued()
        scheduler.noteComposeTime(composeTime)
        onScreen = frame
        // A photo opened or paged to counts once, when it becomes the one shown.
        let scene = viewer.scene
        let shown = [.pager, .opening, .slideshow].contains(scene.mode) ? scene.currentIndex : nil
        if let shown, shown != lastShown { photosShown += 1 }
        lastShown = shown
        return scheduler.presented(at: start, moving: moving)
    }

    /// The oldest frame presented reached the screen at `time` (the flip event's timestamp; in
    /// `simulate` its vblank): the latencies of the touches it shows, in seconds.
    func flipCompleted(at time: Double) -> [Double] {
        touchLatency.flipCompleted(at: time)
    }

    /// The flips in flight will not complete (the display went away): their touches are not measured.
    func flipsAbandoned() {
        touchLatency.discardAll()
    }
}
