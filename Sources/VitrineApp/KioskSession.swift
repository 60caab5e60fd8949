import Config
import Remote
import Rendering
import RunLoopRules
import Scene

/// The app's behaviour in time, shared by `run` and `simulate`: the viewer (scene, photos,
/// renderer) under the frame scheduler and the kiosk policy. Input and the time go in; the frames
/// to draw and the display's power come out. `run` drives it from epoll and CLOCK_MONOTONIC,
/// `simulate` from a recording and virtual time, so both draw the same frames.
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
    private var policy: KioskPolicy
    private var onScreen: SceneFrame?

    /// `zone`: the opening hours' time zone.
    init(viewer: Viewer, settings: Settings, refreshPeriod: Double, now: Double, zone: LocalZone) {
        self.viewer = viewer
        scheduler = FrameScheduler(refreshPeriod: refreshPeriod)
        policy = KioskPolicy(parameters: KioskPolicy.Parameters(settings), now: now, zone: zone)
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
        self.viewer = viewer
        policy.parameters = KioskPolicy.Parameters(settings)
        onScreen = nil
        scheduler.forceRedraw()
    }

    /// The time at which something happening `now` is applied to the scene.
    func sceneTime(now: Double) -> Double { scheduler.sceneTime(now: now) }

    /// A touch frame or key that arrived at `now`. Returns what the policy decided (the caller
    /// turns the display on for `.wake`); a touch that only wakes the screen never reaches the scene.
    @discardableResult
    func handle(_ input: SceneInput, now: Double) -> [KioskPolicy.Action] {
        let (verdict, actions): (KioskPolicy.Verdict, [KioskPolicy.Action])
        switch input {
        case .touch(let frame): (verdict, actions) = policy.touch(contacts: frame.contacts.count, at: now)
        case .back: (verdict, actions) = policy.key(at: now)
        }
        apply(actions, now: now)
        if verdict == .deliver { viewer.handle(input) }
        return actions
    }

    /// The time has come to `now` (`wall` on the wall clock): idle return, slideshow, blanking,
    /// opening hours. Returns the actions taken (the caller switches the display off for `.blank`
    /// and `.close`, on for `.wake` and `.open`).
    @discardableResult
    func tick(now: Double, wall: Double) -> [KioskPolicy.Action] {
        let actions = policy.tick(at: now, wall: wall)
        apply(actions, now: now)
        return actions
    }

    private func apply(_ actions: [KioskPolicy.Action], now: Double) {
        for action in actions {
            switch action {
            case .returnToGrid: viewer.scene.returnToStart(at: sceneTime(now: now))
            case .nextSlide: viewer.scene.showNext(at: sceneTime(now: now))
            case .close, .open: viewer.scene.resetToGrid(at: sceneTime(now: now))
            case .blank, .wake: break
            }
            scheduler.forceRedraw()
        }
    }

    /// A remote action at `now` (SPEC §9; "reload" is the runner's). Returns what the policy
    /// decided (the caller switches the display). Moving between photos counts as input: it wakes a
    /// blanked screen and restarts the idle time.
    @discardableResult
    func control(_ action: RemoteAction, now: Double) -> [KioskPolicy.Action] {
        let actions: [KioskPolicy.Action]
        switch action {
        case .screenOff: actions = policy.blank()
        case .reload: return []
        default: actions = policy.key(at: now).1
        }
        apply(actions, now: now)
        let time = sceneTime(now: now)
        switch action {
        case .next: viewer.scene.showNext(at: time)
        case .previous: viewer.scene.showPrevious(at: time)
        case .open(let index): viewer.scene.show(index, at: time)
        case .close: viewer.scene.close(at: time)
        case .screenOff, .screenOn, .reload: break
        }
        scheduler.forceRedraw()
        return actions
    }

    /// Something outside the scene changed what the screen shows (the library, the display came
    /// back): the next frame is drawn whatever the scene says.
    func forceRedraw() { scheduler.forceRedraw() }

    /// Decoded pixels arrived.
    func imagesArrived() { scheduler.noteImagesArrived() }

    /// What to do about drawing at `now`; `nextVblank` is when a flip queued now would be shown.
    func nextStep(now: Double, flipPending: Bool, nextVblank: Double) -> Step {
        guard policy.isScreenOn else { return .none }
        let moving = viewer.scene.isAnimating || viewer.scene.isTouching
        switch scheduler.decide(now: now, moving: moving, flipPending: flipPending, nextVblank: nextVblank) {
        case .sleep, .awaitFlip:
            return .none
        case .wait(let time):
            return .wait(until: time)
        case .sample(let time):
            let frame = viewer.frame(at: time)
            guard scheduler.mustDraw(sceneChanged: !frame.showsSamePicture(as: onScreen)) else { return .none }
            return .draw(frame, moving: moving)
        }
    }

    /// `frame` went to the display, drawing started at `start`. Returns the vblanks it missed.
    func presented(_ frame: SceneFrame, at start: Double, moving: Bool) -> Int {
        onScreen = frame
        return scheduler.presented(at: start, moving: moving)
    }
}

extension KioskPolicy.Parameters {
    init(_ settings: Settings) {
        let kiosk = settings.kiosk
        let action: KioskPolicy.IdleAction
        switch kiosk.idleAction {
        case .grid: action = .grid
        case .slideshow: action = .slideshow
        case .none: action = .none
        }
        self.init(idleTimeout: kiosk.idleTimeout, idleAction: action, slideshowInterval: kiosk.slideshowInterval,
                  blankAfter: kiosk.blankAfter, openingHours: settings.schedule.openingHours,
                  touchWakes: settings.schedule.touchWakes)
    }
}
