import Blitter
import Config
import Devices
import Foundation
import Glibc
import Linux
import Logging
import Remote
import Rendering
import RunLoopRules
import Scene

/// `vitrine run`: the epoll wiring around the kiosk's session. One loop over the signals, the DRM
/// card, the touch devices, the decoder's eventfd, inotify, uevents and three timers (frames,
/// housekeeping, and the opening hours' next change on the wall clock, which also reports the clock
/// being set), and the remote server's eventfd when it runs. The decisions (when to draw, idle
/// return, slideshow, blanking, opening hours) are the session's pure rules; the display's comings
/// and goings are `DisplayConnection`'s. With no display yet it waits for one (SPEC §7).
final class KioskRunner {
    private let content: KioskContent
    private let logger: Logger
    private let loop: EventLoop
    private let signals: SignalFD
    private let decoded: EventFD
    private let frameTimer: TimerFD
    private let housekeeping: TimerFD
    private let scheduleTimer: TimerFD
    private let status: ServiceStatus
    private let display: DisplayConnection
    private var uevents: UeventMonitor?
    private var session: KioskSession?
    private var inputs: InputDevices?
    private var folder: PhotoFolderWatch?
    /// The remote status and control server, when `remote.listen` is set.
    private let remote: RemoteLink?
    private var canvas = Bitmap(width: 0, height: 0)
    private var stopping = false
    /// Why the loop stopped, when it was not a signal: the process exits with it.
    private var failure: Error?

    init(settings: Settings, configPath: String, version: String, logger: Logger) throws {
        self.logger = logger
        // Block the signals before any thread starts, so every thread inherits the mask.
        signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP])
        loop = try EventLoop()
        decoded = try EventFD()
        frameTimer = try TimerFD()
        housekeeping = try TimerFD()
        scheduleTimer = try TimerFD(clock: .wall)
        SystemTimeZone.reload()
        display = DisplayConnection(settings: settings.display, logger: logger)
        status = ServiceStatus(notifier: ServiceNotifier(environment: ProcessInfo.processInfo.environment),
                               logger: logger, now: MonotonicClock.now())
        let wake = decoded
        content = KioskContent(settings: settings, configPath: configPath, logger: logger, status: status,
                               onDecoded: { wake.signal() })
        remote = try RemoteLink(settings: settings.remote, version: version, logger: logger, now: MonotonicClock.now())
    }

    /// Closes what `init` opened, in reverse; after `run` has returned.
    func close() {
        remote?.close()
        status.close()
        scheduleTimer.close()
        housekeeping.close()
        frameTimer.close()
        decoded.close()
        loop.close()
        signals.close()
    }

    func run() throws {
        try loop.watch(signals.fileDescriptor) { [unowned self] in self.handleSignals() }
        try loop.watch(decoded.fileDescriptor) { [unowned self] in
            self.decoded.drain()
            self.session?.imagesArrived()
            self.drawIfNeeded()
        }
        try loop.watch(frameTimer.fileDescriptor) { [unowned self] in
            self.frameTimer.drain()
            self.drawIfNeeded()
        }
        try loop.watch(housekeeping.fileDescriptor) { [unowned self] in
            self.housekeeping.drain()
            self.tick()
        }
        try loop.watch(scheduleTimer.fileDescriptor) { [unowned self] in
            if self.scheduleTimer.drain() {
                // The wall clock was set (NTP, `date -s`): the opening hours are read again at once.
                SystemTimeZone.reload()
                self.logger.notice("the wall clock was set: opening hours worked out again")
            }
            self.tick()
        }
        do {
            let uevents = try UeventMonitor()
            self.uevents = uevents
            try loop.watch(uevents.fileDescriptor) { [unowned self] in
                self.displayChanged { try self.display.handle(uevents.read(), keepDark: self.session?.isScreenOn == false) }
            }
        } catch {
            uevents?.close()
            uevents = nil
            logger.warning("not listening for display hotplug (uevents): \(error); looking again every second")
        }
        if let remote {
            try loop.watch(remote.fileDescriptor) { [unowned self] in self.remoteRequests(remote) }
        }
        defer { shutDown() }
        displayChanged { try display.open() }
        tick()
        while !stopping {
            publishRemote()
            try loop.runOnce(timeout: nil)
        }
        if let failure { throw failure }
    }

    private func shutDown() {
        status.stopping()
        inputs?.closeAll()
        inputs = nil
        folder?.close()
        folder = nil
        if let uevents {
            loop.unwatch(uevents.fileDescriptor)
            uevents.close()
        }
        uevents = nil
        if let output = display.output { loop.unwatch(output.fileDescriptor) }
        display.close()
        session = nil
        logger.info("stopped; display restored (\(status.framesPresented) frames drawn since start)")
    }

    // MARK: - The display comes and goes

    private func displayChanged(_ body: () throws -> DisplayConnection.Change?) {
        let change: DisplayConnection.Change?
        do {
            change = try body()
        } catch {
            fail(AppError("\(error)"))
            return
        }
        switch change {
        case .opened?:
            if let output = display.output { start(on: output) }
        case .waiting(let why)?:
            status.set(.waitingForDisplay(why))
        case .disconnected(let connector)?:
            status.set(.waitingForDisplay("\(connector) disconnected"))
        case .reconnected?:
            status.set(session.map { screenState($0) } ?? .showing)
            session?.forceRedraw()
            drawIfNeeded()
        case nil:
            break
        }
    }

    /// The display is there: the viewer at its size, the touch panels mapped onto it, the folder watched.
    private func start(on output: DisplayOutput) {
        do {
            try loop.watch(output.fileDescriptor) { [unowned self] in self.displayEvent(output) }
        } catch {
            fail(AppError("display: cannot watch \(output.display.card.path): \(error)"))
            return
        }
        let settings = content.settings
        let viewer = content.makeViewer(screen: output.logicalSize)
        session = KioskSession(viewer: viewer, settings: settings, refreshPeriod: output.refreshPeriod,
                               now: MonotonicClock.now(), zone: .system)
        canvas = Bitmap(width: Int(output.logicalSize.width), height: Int(output.logicalSize.height))
        let inputs = InputDevices(settings: settings.input, screen: output.logicalSize, displayRotation: output.rotation,
                                  loop: loop, logger: logger,
                                  onTouch: { [unowned self] in self.input(.touch($0)) },
                                  onBack: { [unowned self] in self.input(.back(time: $0)) })
        inputs.start()
        self.inputs = inputs
        if settings.photos.watch {
            folder = PhotoFolderWatch(directory: settings.photos.directory, loop: loop, logger: logger) { [unowned self] writing in
                self.rescan(because: "photo folder changed", excluding: writing)
            }
        }
        logger.info("showing \(viewer.store.photos.count) photos from \(settings.photos.directory)")
        status.set(.starting)
        // Closed now? Then the display goes off before anything is drawn.
        tick()
    }

    private func displayEvent(_ output: DisplayOutput) {
        do {
            try output.display.handleEvents()
            if output.display.flipCount > 0 { status.frameOnScreen() }
        } catch {
            logger.error("display: \(error)")
        }
        drawIfNeeded()
    }

    // MARK: - Signals, photos, settings

    private func handleSignals() {
        for signal in signals.read() {
            switch signal {
            case SIGTERM, SIGINT:
                logger.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                stopping = true
            case SIGHUP:
                reload()
            default:
                break
            }
        }
    }

    /// SIGHUP: the config and the photos read again. New settings need a new viewer (the scroll
    /// position and open photo are not kept); the same ones keep the screen and the decoded photos.
    private func reload() {
        status.reloading()
        defer { status.reloaded() }
        guard content.reload() == .newSettings else {
            return rescan(because: "SIGHUP", excluding: folder?.beingWritten ?? [])
        }
        guard let output = display.output, let session else { return }
        session.replaceViewer(content.makeViewer(screen: output.logicalSize), settings: content.settings)
        SystemTimeZone.reload()
        tick()
    }

    /// The folder changed (or SIGHUP asked to read it again): the grid updates in place.
    private func rescan(because reason: String, excluding writing: Set<String> = []) {
        guard let session else { return }
        let photos = content.scan(excluding: writing)
        session.viewer.replacePhotos(photos, at: session.sceneTime(now: MonotonicClock.now()))
        logger.info("\(reason): showing \(photos.count) photos")
        session.forceRedraw()
        drawIfNeeded()
    }

    // MARK: - Input, time and frames

    /// Touches keep their own timestamps (CLOCK_MONOTONIC, EVIOCSCLOCKID): usually a little older
    /// than the last frame, which was sampled at its future vblank; the scene applies them at its
    /// current time and keeps their own times for tap timing and velocity.
    private func input(_ input: SceneInput) {
        if case .touch(let frame) = input { remote?.touched(contacts: frame.contacts.count) }
        guard let session else { return }
        carryOut(session.handle(input, now: MonotonicClock.now()))
        drawIfNeeded()
    }

    /// The kiosk's deadlines, the watchdog and the minute's statistics; while waiting for a display,
    /// another look.
    private func tick() {
        let now = MonotonicClock.now()
        status.tick(now: now)
        // Waiting: a card's uevent can come before its driver can be opened, so look every tick too.
        if display.output == nil { displayChanged { try display.open() } }
        if let session { carryOut(session.tick(now: now, wall: WallClock.now())) }
        let deadline = session?.nextDeadline.map { max($0, now) } ?? .infinity
        try? housekeeping.arm(at: min(now + status.tickInterval, deadline))
        armScheduleTimer()
        drawIfNeeded()
    }

    /// The opening hours' next change, on the wall clock; armed even when none is due within the
    /// horizon, so that the clock being set is still heard.
    private func armScheduleTimer() {
        guard let session, !content.settings.schedule.openingHours.isAlwaysOpen else {
            try? scheduleTimer.disarm()
            return
        }
        let change = session.nextScheduleChange.map(Double.init) ?? WallClock.now() + 400 * 86400
        do {
            try scheduleTimer.arm(at: change)
        } catch {
            logger.warning("opening hours: cannot arm the wall-clock timer: \(error)")
        }
    }

    /// What STATUS= says about the screen now.
    private func screenState(_ session: KioskSession) -> ServiceStatus.State {
        if let closed = session.closedStatus(wall: WallClock.now()) {
            return .closed(session.isScreenOn ? closed + " (on for a touch)" : closed)
        }
        return session.isScreenOn ? .showing : .displayOff("idle")
    }

    /// The display's part of the kiosk's actions (the session has done the scene's).
    private func carryOut(_ actions: [KioskPolicy.Action]) {
        guard let output = display.output, let session else { return }
        for action in actions {
            switch action {
            case .blank:
                logger.info("idle for \(Int(content.settings.kiosk.blankAfter)) s: display \(output.switchOff())")
            case .close:
                let closed = session.closedStatus(wall: WallClock.now()) ?? "closed"
                logger.info("opening hours: \(closed); display \(output.switchOff())")
            case .wake:
                output.switchOn()
                logger.info(session.isClosed
                    ? "touch while closed: display on for \(Int(content.settings.schedule.touchWakes)) s" : "touch: display on")
            case .open:
                output.switchOn()
                logger.info("opening hours: open; display on")
            case .returnToGrid, .nextSlide:
                continue
            }
            status.set(screenState(session))
        }
    }

    /// Draws the next frame when the scheduler says so, sampled at the vblank it will be shown at;
    /// the frame-rate limit arms the frame timer, a flip in flight calls back here when it lands.
    private func drawIfNeeded() {
        guard let output = display.output, let session, display.isConnected, !stopping else { return }
        let now = MonotonicClock.now()
        switch session.nextStep(now: now, flipPending: output.isFlipPending,
                                nextVblank: output.display.expectedFlipTime(after: now)) {
        case .none:
            return
        case .wait(let time):
            try? frameTimer.arm(at: time)
        case let .draw(frame, moving):
            let start = MonotonicClock.now()
            let changed = session.viewer.draw(frame, into: &canvas)
            do {
                try output.present(canvas, changedRows: changed)
            } catch {
                logger.error("display: \(error)")
                return
            }
            let end = MonotonicClock.now()
            status.framePresented(composeTime: end - start, missedVblanks: session.presented(frame, at: start, moving: moving),
                                  now: end)
            // One line per frame at log.level "debug": a still screen writes none.
            logger.debug("frame \(status.framesPresented): \(frame.mode.rawValue), \(output.rowsWritten) rows written")
        }
    }

    // MARK: - Remote status and control

    /// After each turn of the loop: what the server answers from until the next.
    private func publishRemote() {
        remote?.publish(status: status, content: content, display: display, session: session, inputs: inputs,
                        now: MonotonicClock.now())
    }

    /// The server queued actions or waits for a screenshot.
    private func remoteRequests(_ remote: RemoteLink) {
        remote.drain()
        for action in remote.state.takeActions() { control(action) }
        if remote.state.wantsScreenshot {
            // A copy of the frame composed last, made here between frames: never an extra render.
            let frame = session != nil && status.framesPresented > 0
                ? Bitmap(width: canvas.width, height: canvas.height, stride: canvas.stride,
                         pixels: canvas.pixels.withUnsafeBufferPointer { Array($0) })
                : nil
            remote.state.answerScreenshots(with: frame)
        }
        drawIfNeeded()
    }

    private func control(_ action: RemoteAction) {
        logger.info("remote: \(action)")
        if action == .reload { return reload() }
        guard let session, let output = display.output else {
            return logger.notice("remote: \(action.name) has nothing to act on while waiting for a display")
        }
        for decided in session.control(action, now: MonotonicClock.now()) {
            switch decided {
            case .blank:
                logger.info("remote: display \(output.switchOff())")
                status.set(session.isClosed ? screenState(session) : .displayOff("remote"))
            case .wake:
                output.switchOn()
                logger.info("remote: display on")
                status.set(screenState(session))
            case .returnToGrid, .nextSlide, .close, .open:
                break
            }
        }
    }

    private func fail(_ error: Error) {
        failure = error
        stopping = true
    }
}
