import Blitter
import Config
import Devices
import DRM
import Foundation
import Linux
import Logging
import RemoteControl
import Rendering
import RunLoopRules
import Scene

/// `vitrine run`: the epoll wiring around the kiosk's session. One loop over its own descriptors
/// (`RunLoopFiles`), the DRM card, the touch devices, inotify and the remote transports' eventfd.
/// Every event goes to `KioskSession.dispatch`, which decides; this carries out the display's part.
/// The display's comings and goings are `DisplayConnection`'s; with none yet it waits (SPEC §7).
final class KioskRunner {
    private let files: RunLoopFiles
    private let content: KioskContent
    private let logger: Logger
    private let status: ServiceStatus
    private let display: DisplayConnection
    private var session: KioskSession?
    private var inputs: InputDevices?
    private var folder: PhotoFolderWatch?
    /// The remote transports' end, when one is configured.
    private let remote: RemoteLink?
    /// The MQTT transport among them, which a reload reconfigures.
    private let mqtt: MQTTTransport?
    private var canvas = Bitmap(width: 0, height: 0)
    /// The display's flips completed as of the last look: a new one is a frame on screen, whose
    /// touches' latencies are then counted (SPEC §13).
    private var flipsSeen = 0
    private var stopping = false
    /// Why the loop stopped, when it was not a signal: the process exits with it.
    private var failure: Error?

    init(settings: Settings, configPath: String, version: String, logger: Logger) throws {
        self.logger = logger
        files = try RunLoopFiles(logger: logger)
        SystemTimeZone.reload()
        display = DisplayConnection(settings: settings.display, logger: logger)
        status = ServiceStatus(notifier: ServiceNotifier(environment: ProcessInfo.processInfo.environment),
                               logger: logger, now: MonotonicClock.now())
        let (wake, reloaded) = (files.decoded, files.reloaded)
        content = KioskContent(settings: settings, configPath: configPath, logger: logger, status: status,
                               onDecoded: { wake.signal() }, onReloaded: { reloaded.signal() })
        var mqtt: MQTTTransport?
        remote = try RemoteLink.start(settings, version: version, logger: logger, mqtt: &mqtt)
        self.mqtt = mqtt
    }

    /// Closes what `init` opened, in reverse; after `run` has returned.
    func close() {
        content.close()
        remote?.close()
        status.close()
        files.close()
    }

    func run() throws {
        try files.watch(RunLoopFiles.Handlers(
            stop: { [unowned self] in self.stopping = true },
            reload: { [unowned self] in self.reload() },
            reloaded: { [unowned self] in self.reloaded() },
            decoded: { [unowned self] in
                if let refused = self.session?.imagesArrived(now: MonotonicClock.now()), !refused.isEmpty {
                    self.content.refuse(refused)
                }
                self.drawIfNeeded()
            },
            frameDue: { [unowned self] in self.drawIfNeeded() },
            tickDue: { [unowned self] in self.tick() },
            uevents: { [unowned self] events in
                self.displayChanged { try self.display.handle(events, keepDark: self.session?.isScreenOn == false) }
            }))
        if let remote {
            try files.loop.watch(remote.fileDescriptor) { [unowned self] in self.remoteRequests(remote) }
        }
        defer { shutDown() }
        // The library is the kiosk's whatever the display (SPEC §9): watched, then scanned, from the
        // start (so that a write under way during the first scan is seen when it goes on).
        if content.settings.photos.watch {
            folder = PhotoFolderWatch(directory: content.settings.photos.directory, loop: files.loop, logger: logger) { [unowned self] in
                // Read off the loop (`reloaded` shows it): headers of a large library take seconds.
                self.content.beginRescan(excluding: $0)
            }
        }
        content.scan()
        displayChanged { try display.open() }
        tick()
        while !stopping {
            remote?.publish(status: status, session: session, now: MonotonicClock.now())
            try files.loop.runOnce(timeout: nil)
        }
        if let failure { throw failure }
    }

    private func shutDown() {
        status.stopping()
        inputs?.closeAll()
        inputs = nil
        folder?.close()
        folder = nil
        files.stopUevents()
        if let output = display.output { files.loop.unwatch(output.fileDescriptor) }
        display.close()
        session = nil
        logger.info("stopped; display restored (\(status.framesPresented) frames drawn since start)")
    }

    // MARK: - The display comes and goes

    private func displayChanged(_ body: () throws -> DisplayConnection.Change?) {
        do {
            let change = try body()
            status.displayChanged(change, display: display, screen: session?.screenState(wall: WallClock.now()))
            if change == .opened, let output = display.output { start(on: output) }
            // Flips in flight on a display that went away never complete.
            if case .disconnected? = change { session?.flipsAbandoned() }
            if case .reconnected? = change {
                session?.forceRedraw()
                drawIfNeeded()
            }
        } catch let error as DRMError where error.isNotACard {
            // A configuration error (status 2, SPEC §5), which the unit does not restart on.
            fail(AppError("display.card: \(error)", exitCode: 2))
        } catch {
            fail(AppError("\(error)"))
        }
    }

    /// The display is there: the viewer at its size, the touch panels mapped onto it.
    private func start(on output: DisplayOutput) {
        do {
            try files.loop.watch(output.fileDescriptor) { [unowned self] in self.displayEvent(output) }
        } catch {
            return fail(AppError("display: cannot watch \(output.display.card.path): \(error)"))
        }
        let settings = content.settings
        let viewer = makeViewer(on: output)
        session = KioskSession(viewer: viewer, settings: settings, refreshPeriod: output.refreshPeriod,
                               now: MonotonicClock.now(), zone: .system)
        canvas = Bitmap(width: Int(output.logicalSize.width), height: Int(output.logicalSize.height))
        flipsSeen = output.display.flipCount
        let inputs = InputDevices(settings: settings.input, screen: output.logicalSize, displayRotation: output.rotation,
                                  loop: files.loop, logger: logger,
                                  onTouch: { [unowned self] in self.dispatch(.input(.touch($0))) },
                                  onBack: { [unowned self] in self.dispatch(.input(.back(time: $0))) })
        inputs.start()
        self.inputs = inputs
        logger.info("showing \(viewer.store.items.count) photos from \(settings.photos.directory)")
        status.set(.starting)
        // Closed now? Then the display goes off before anything is drawn.
        tick()
    }

    /// The viewer at the display's size; a clip's frames are due at the display's vblanks, whose
    /// flip timestamps wander a little around the ideal grid.
    private func makeViewer(on output: DisplayOutput) -> Viewer {
        let viewer = content.makeViewer(screen: output.logicalSize)
        viewer.clips.tolerance = ClipTimeline.vblankTolerance(refreshPeriod: output.refreshPeriod)
        return viewer
    }

    private func displayEvent(_ output: DisplayOutput) {
        do {
            try output.display.handleEvents()
            if output.display.flipCount > 0 { status.frameOnScreen() }
            flipsCompleted(on: output)
        } catch {
            logger.error("display: \(error)")
        }
        drawIfNeeded()
    }

    /// The frames whose flips completed since the last look are on screen: the latency of each
    /// touch they show, from the flip event's timestamp (CLOCK_MONOTONIC when the card says so,
    /// else the time the event is read).
    private func flipsCompleted(on output: DisplayOutput) {
        let count = output.display.flipCount
        defer { flipsSeen = count }
        guard let session, count > flipsSeen else { return }
        let time = output.display.card.hasMonotonicTimestamps ? output.lastFlipTime ?? MonotonicClock.now() : MonotonicClock.now()
        for _ in flipsSeen..<count {
            for latency in session.flipCompleted(at: time) {
                status.touchLatency(latency)
                // At log.level "debug", one line per touch measured (the end-to-end test reads them).
                logger.debug("touch to flip: \(FrameStatistics.ms(latency, 2))")
            }
        }
    }

    // MARK: - Photos and settings

    /// SIGHUP or a transport's "reload": the config and the photos read again, off the loop (a
    /// huge config or folder must not stall the frames); `reloaded` applies what was read.
    private func reload() {
        status.reloading()
        content.beginReload(excluding: folder?.beingWritten ?? [])
    }

    /// A reload's reading is done. New settings need a new viewer (the scroll position and open
    /// photo are not kept); the same ones keep the screen.
    private func reloaded() {
        guard let result = content.finishReload() else { return }
        if result == .photosOnly { return showPhotos(because: "photo folder changed") }
        // Its password file may have changed whatever the config: read again off the loop.
        mqtt?.reload(content.settings.mqtt)
        if !content.isReloading { status.reloaded() }
        guard result == .newSettings else {
            return showPhotos(because: "SIGHUP")
        }
        SystemTimeZone.reload()
        guard let output = display.output, let session else { return }
        session.replaceViewer(makeViewer(on: output), settings: content.settings)
        tick()
    }

    /// The library was read again: the grid updates in place.
    private func showPhotos(because reason: String) {
        guard let session else { return }
        session.replaceItems(content.items, now: MonotonicClock.now())
        logger.info("\(reason): showing \(content.items.count) photos")
        drawIfNeeded()
    }

    // MARK: - Events, time and frames

    /// Every event, whatever its source: the session decides; the display's part is done here.
    /// (Touches keep their own CLOCK_MONOTONIC timestamps; the scene applies them at its current time.)
    private func dispatch(_ event: KioskEvent) {
        let effects = session?.dispatch(event, now: MonotonicClock.now(), wall: WallClock.now())
            ?? KioskSession.dispatchWithoutScreen(event)
        for effect in effects {
            switch effect {
            case let .screenOff(log, state):
                if let output = display.output { logger.info("\(log)display \(output.switchOff())") }
                status.set(state)
            case let .screenOn(log, state):
                display.output?.switchOn()
                logger.info("\(log)")
                status.set(state)
            case .reload:
                reload()
            case .ignored(let why):
                logger.notice("\(why)")
            }
        }
        drawIfNeeded()
    }

    /// The kiosk's deadlines, the watchdog, the minute's statistics and the wall-clock alarm; while
    /// waiting for a display, another look (a card's uevent can come before its driver can be opened).
    private func tick() {
        let now = MonotonicClock.now()
        status.tick(now: now)
        status.inputDevices = inputs?.descriptions ?? []
        if display.output == nil { displayChanged { try display.open() } }
        if session != nil { dispatch(.time) }
        try? files.housekeeping.arm(at: min(now + status.tickInterval, session?.nextDeadline.map { max($0, now) } ?? .infinity))
        files.armWallClock(at: session?.wallClockAlarm(wall: WallClock.now()))
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
            try? files.frameTimer.arm(at: time)
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
            // A flip `present` waited for itself (none is in flight when the scheduler draws).
            flipsCompleted(on: output)
            let missed = session.presented(frame, at: start, composeTime: end - now, moving: moving)
            if !output.isFlipPending { session.flipsAbandoned() }
            status.framePresented(composeTime: end - start, missedVblanks: missed, now: end)
            // One line per frame at log.level "debug": a still screen writes none.
            logger.debug("frame \(status.framesPresented): \(frame.mode.rawValue), \(output.rowsWritten) rows written")
        }
    }

    /// A transport queued actions or waits for a screenshot.
    private func remoteRequests(_ remote: RemoteLink) {
        for action in remote.takeActions() {
            logger.info("remote: \(action)")
            dispatch(.remote(action))
        }
        remote.answerScreenshots(with: session != nil && status.framesPresented > 0 ? canvas : nil)
    }

    private func fail(_ error: Error) {
        failure = error
        stopping = true
    }
}
