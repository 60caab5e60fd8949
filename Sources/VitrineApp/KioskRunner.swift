import Blitter
import Config
import DRM
import Foundation
import Geometry
import Glibc
import Linux
import Logging
import Photos
import Scene
import Touch

/// `vitrine run`: one epoll loop over the DRM card, the touch devices, the decoder's eventfd,
/// inotify, signals and timers. It draws only when something changed, sampling the scene at the
/// vblank the frame will be shown at, and sleeps in epoll_wait otherwise.
final class KioskRunner {
    private var settings: Settings
    private let configPath: String
    private let logger: Logger

    private let loop: EventLoop
    private let signals: SignalFD
    private let decoded: EventFD
    private let frameTimer: TimerFD
    private let housekeeping: TimerFD
    private let notifier: ServiceNotifier?

    private var output: DisplayOutput?
    private var viewer: Viewer?
    private var inputs: InputDevices?
    private var folder: PhotoFolderWatch?
    private var uevents: UeventMonitor?
    /// False while the display is unplugged: nothing is drawn until it returns.
    private var displayConnected = true
    /// Why the loop stopped, when it was not a signal: the process exits with it.
    private var failure: Error?
    private var canvas = Bitmap(width: 0, height: 0)

    private var lastFrame: SceneFrame?
    private var lastSampleTime = 0.0
    private var lastPresent = 0.0
    private var imagesChanged = false
    private var redrawOwed = false
    private var fingersDown = false
    private var stopping = false
    private var readySent = false
    private var lastTouch = MonotonicClock.now()
    private var blanked = false
    private var swallowTouch = false
    private var idleActionDone = false
    private var nextSlide: Double?
    private var lastWatchdog = 0.0
    private var statistics = FrameStatistics()
    private var statisticsStart = MonotonicClock.now()
    /// Frames put on screen since start (`statistics` counts the current minute).
    private var framesPresented = 0
    private var photoCount = 0

    init(settings: Settings, configPath: String, logger: Logger) throws {
        self.settings = settings
        self.configPath = configPath
        self.logger = logger
        // Block the signals before any thread starts, so every thread inherits the mask.
        signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP])
        loop = try EventLoop()
        decoded = try EventFD()
        frameTimer = try TimerFD()
        housekeeping = try TimerFD()
        notifier = ServiceNotifier(environment: ProcessInfo.processInfo.environment)
    }

    /// Closes what `init` opened, in reverse; after `run` has returned.
    func close() {
        notifier?.close()
        housekeeping.close()
        frameTimer.close()
        decoded.close()
        loop.close()
        signals.close()
    }

    func run() throws {
        notifier?.status("starting")
        try loop.watch(signals.fileDescriptor) { [unowned self] in self.handleSignals() }
        try loop.watch(decoded.fileDescriptor) { [unowned self] in
            self.decoded.drain()
            self.imagesChanged = true
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

        let output = try openDisplay()
        defer { shutDown() }
        try start(on: output)
        try housekeeping.arm(at: MonotonicClock.now() + 1)

        while !stopping {
            try loop.runOnce(timeout: nil)
        }
        if let failure { throw failure }
    }

    // MARK: - Set-up and tear-down

    private func openDisplay() throws -> DisplayOutput {
        do {
            return try DisplayOutput(settings: settings.display, logger: logger)
        } catch let error as AppError {
            notifier?.status("no display: \(error.description)")
            throw error
        }
    }

    private func start(on output: DisplayOutput) throws {
        self.output = output
        try loop.watch(output.fileDescriptor) { [unowned self] in self.displayEvent() }
        do {
            let uevents = try UeventMonitor()
            self.uevents = uevents
            try loop.watch(uevents.fileDescriptor) { [unowned self] in self.deviceEvents() }
        } catch {
            uevents?.close()
            uevents = nil
            logger.warning("not watching for the display being unplugged: \(error)")
        }
        let photos = (try? PhotoFolder.scan(settings.photos, logger: logger)) ?? []
        if photos.isEmpty { logger.warning("no photos to show in \(settings.photos.directory) (photos.directory)") }
        photoCount = photos.count
        let wake = decoded
        let viewer = Viewer(settings: settings, screenSize: output.logicalSize, photos: photos, logger: logger,
                            onDecoded: { wake.signal() })
        self.viewer = viewer
        canvas = Bitmap(width: Int(output.logicalSize.width), height: Int(output.logicalSize.height))
        let inputs = InputDevices(settings: settings.input, screen: output.logicalSize, displayRotation: output.rotation,
                                  loop: loop, logger: logger,
                                  onTouch: { [unowned self] in self.touch($0) },
                                  onBack: { [unowned self] in self.back(at: $0) })
        inputs.start()
        self.inputs = inputs
        if settings.photos.watch {
            folder = PhotoFolderWatch(directory: settings.photos.directory, loop: loop, logger: logger) { [unowned self] in
                self.rescan()
            }
        }
        logger.info("showing \(photos.count) photos from \(settings.photos.directory)")
        drawIfNeeded(force: true)
    }

    private func shutDown() {
        notifier?.stopping()
        inputs?.closeAll()
        inputs = nil
        folder?.close()
        folder = nil
        if let uevents {
            loop.unwatch(uevents.fileDescriptor)
            uevents.close()
        }
        uevents = nil
        if let output {
            loop.unwatch(output.fileDescriptor)
            output.close(logger: logger)
        }
        output = nil
        viewer = nil
        logger.info("stopped; display restored (\(framesPresented) frames drawn since start)")
    }

    // MARK: - Events

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

    /// SIGHUP: read the config again and rescan the photos; a broken config is reported and the
    /// old one kept.
    private func reload() {
        notifier?.reloading()
        do {
            let fresh = try SettingsFile.load(path: configPath, mustExist: false)
            if fresh.display != settings.display || fresh.input != settings.input {
                logger.notice("SIGHUP: [display] and [input] changes take effect at the next start")
            }
            StderrLogHandler.bootstrap(level: Logger.Level(fresh.log.level))
            let changed = fresh != settings
            settings = fresh
            logger.info("SIGHUP: configuration reloaded from \(configPath)\(changed ? "" : " (unchanged)")")
            // New settings need a new viewer; the same ones keep the screen and the decoded photos.
            if changed { rebuildViewer() } else { rescan(because: "SIGHUP") }
        } catch {
            // The screen stays exactly as it was; only the photo folder is read again.
            logger.error("SIGHUP: keeping the old configuration: \(error)")
            rescan(because: "SIGHUP")
        }
        notifier?.status(statusLine)
        notifier?.send("READY=1")
    }

    /// A new viewer for new settings or photos; the scroll position and open photo are not kept
    /// across a reload (a rescan from the folder watch keeps them, see `rescan`).
    private func rebuildViewer() {
        guard let output else { return }
        let photos = (try? PhotoFolder.scan(settings.photos, logger: logger)) ?? []
        photoCount = photos.count
        let wake = decoded
        viewer = Viewer(settings: settings, screenSize: output.logicalSize, photos: photos, logger: logger,
                        onDecoded: { wake.signal() })
        lastFrame = nil
        drawIfNeeded(force: true)
    }

    /// The folder changed (or SIGHUP asked to read it again): the grid updates in place.
    private func rescan(because reason: String = "photo folder changed") {
        guard let viewer else { return }
        let photos = (try? PhotoFolder.scan(settings.photos, logger: logger)) ?? []
        photoCount = photos.count
        viewer.replacePhotos(photos, at: sceneTime())
        logger.info("\(reason): showing \(photos.count) photos")
        notifier?.status(statusLine)
        drawIfNeeded(force: true)
    }

    /// Touches keep their own timestamps (CLOCK_MONOTONIC, EVIOCSCLOCKID): they are usually a little
    /// older than the last frame, which was sampled at its future vblank; the scene applies them at
    /// its current time and keeps their own times for tap timing and velocity.
    private func touch(_ frame: TouchFrame) {
        lastTouch = MonotonicClock.now()
        idleActionDone = false
        nextSlide = nil
        if blanked || swallowTouch {
            // The first touch on a dark screen only wakes it.
            if blanked { wake() }
            swallowTouch = !frame.contacts.isEmpty
            return
        }
        fingersDown = !frame.contacts.isEmpty
        viewer?.handle(.touch(frame))
        drawIfNeeded()
    }

    private func back(at time: Double) {
        lastTouch = MonotonicClock.now()
        if blanked { wake(); return }
        viewer?.handle(.back(time: time))
        drawIfNeeded()
    }

    private func displayEvent() {
        guard let output else { return }
        do {
            try output.display.handleEvents()
            if !readySent, output.display.flipCount > 0 {
                readySent = true
                notifier?.ready(status: statusLine)
                logger.info("first frame on screen")
            }
        } catch {
            logger.error("display: \(error)")
        }
        drawIfNeeded()
    }

    /// Kernel device events: a "change" on our DRM card means a display may have been plugged in
    /// or pulled out (real hotplugs carry HOTPLUG=1; a write to the card's uevent file carries
    /// nothing more), so the connector is probed again.
    private func deviceEvents() {
        guard let uevents, let output else { return }
        let cardEvent = uevents.read().contains { event in
            event.subsystem == "drm" && event.action == "change"
                && event.deviceName.map { "/dev/" + $0 == output.display.card.path } ?? true
        }
        if cardEvent { probeDisplay() }
    }

    /// Unplugged: stop drawing and say so. Back: set the mode again and draw the whole frame, or,
    /// when the display now there does not offer the mode in use, exit with an error so the
    /// service manager starts vitrine again to pick the new display's mode.
    private func probeDisplay() {
        guard let output else { return }
        let display = output.display
        let name = display.connector.name
        let status: ConnectorStatus
        do {
            status = try display.connectorStatus()
        } catch {
            logger.error("display: probing \(name): \(error)")
            return
        }
        if status == .disconnected, displayConnected {
            displayConnected = false
            logger.warning("display: \(name) disconnected; waiting for it to come back")
            notifier?.status("waiting for display (\(name) disconnected); \(statusLine)")
        } else if status != .disconnected, !displayConnected {
            do {
                guard try display.connectorOffersCurrentMode() else {
                    fail(AppError("display: \(name) came back without mode \(display.modeInfo); exiting to start again with its mode"))
                    return
                }
                try display.reactivate()
                // Idle-blanked before it went: it stays dark until a touch.
                if blanked { try? display.setPower(on: false) }
            } catch {
                fail(AppError("display: \(name) came back but cannot be shown: \(error)"))
                return
            }
            displayConnected = true
            logger.info("display: \(name) connected again")
            notifier?.status(statusLine)
            lastFrame = nil
            drawIfNeeded(force: true)
        }
    }

    private func fail(_ error: Error) {
        failure = error
        stopping = true
    }

    // MARK: - Drawing

    private func sceneTime() -> Double {
        max(lastSampleTime, MonotonicClock.now())
    }

    /// Draws the next frame when something may have changed and no flip is in flight, at most
    /// once per refresh period (virtio-gpu and some drivers complete flips faster than vblank).
    private func drawIfNeeded(force: Bool = false) {
        // A forced frame (the library or the settings changed, the screen woke) stays owed until
        // it is on screen: a flip in flight or the frame-rate limit only postpones it.
        if force { redrawOwed = true }
        guard let output, let viewer, !blanked, displayConnected, !stopping else { return }
        let animating = viewer.scene.isAnimating || fingersDown
        guard redrawOwed || animating || imagesChanged || lastFrame == nil else { return }
        guard !output.isFlipPending else { return }   // the flip event calls back here
        let now = MonotonicClock.now()
        let earliest = lastPresent + output.refreshPeriod * 0.9
        if now < earliest {
            try? frameTimer.arm(at: earliest)
            return
        }
        let shownAt = max(output.display.expectedFlipTime(after: now), lastSampleTime)
        let frame = viewer.frame(at: shownAt)
        lastSampleTime = shownAt
        if !redrawOwed && !imagesChanged && frame == lastFrame { return }
        imagesChanged = false
        let start = MonotonicClock.now()
        viewer.draw(frame, into: &canvas)
        do {
            try output.present(canvas)
        } catch {
            logger.error("display: \(error)")
            return
        }
        let end = MonotonicClock.now()
        let missed = lastPresent > 0 && lastFrame != nil ? max(0, Int(((start - lastPresent) / output.refreshPeriod).rounded(.down)) - 1) : 0
        statistics.record(composeTime: end - start, missedVblanks: animating ? missed : 0)
        framesPresented += 1
        // One line per frame at log.level "debug": a still screen writes none.
        logger.debug("frame \(framesPresented): \(frame.mode.rawValue)")
        lastPresent = start
        lastFrame = frame
        redrawOwed = false
        pingWatchdog(now: end)
    }

    // MARK: - Housekeeping: idle, blanking, watchdog, statistics (once a second)

    private func tick() {
        let now = MonotonicClock.now()
        try? housekeeping.arm(at: now + min(1, (notifier?.watchdogInterval ?? 1)))
        pingWatchdog(now: now)
        let idle = now - lastTouch
        let kiosk = settings.kiosk
        if let viewer, !blanked, !fingersDown {
            if kiosk.idleTimeout > 0, idle >= kiosk.idleTimeout, !idleActionDone {
                idleActionDone = true
                switch kiosk.idleAction {
                case .grid:
                    viewer.scene.returnToStart(at: sceneTime())
                case .slideshow:
                    nextSlide = now
                case .none:
                    break
                }
                drawIfNeeded(force: true)
            }
            if let slide = nextSlide, now >= slide {
                viewer.scene.showNext(at: sceneTime())
                nextSlide = now + kiosk.slideshowInterval
                drawIfNeeded(force: true)
            }
        }
        if kiosk.blankAfter > 0, idle >= kiosk.blankAfter, !blanked { blank() }
        if now - statisticsStart >= 60 {
            if statistics.framesDrawn > 0 { logger.info("frames: \(statistics.summary)") }
            notifier?.status(statusLine)
            statistics.reset()
            statisticsStart = now
        }
    }

    /// The watchdog is fed from the frame path and the once-a-second tick, both on the loop's
    /// thread: a loop that hangs stops feeding it and systemd restarts the service.
    private func pingWatchdog(now: Double) {
        guard let interval = notifier?.watchdogInterval, now - lastWatchdog >= interval / 2 else { return }
        lastWatchdog = now
        notifier?.watchdog()
    }

    private func blank() {
        guard let output else { return }
        blanked = true
        nextSlide = nil
        do {
            try output.display.setPower(on: false)
            logger.info("idle for \(Int(settings.kiosk.blankAfter)) s: display off (DPMS)")
        } catch {
            // No DPMS on this connector: show black instead.
            canvas.fill(canvas.bounds, color: Pixel.black)
            try? output.present(canvas)
            logger.info("idle for \(Int(settings.kiosk.blankAfter)) s: display black (no DPMS: \(error))")
        }
        notifier?.status("display off (idle); \(statusLine)")
    }

    private func wake() {
        guard blanked, let output else { return }
        blanked = false
        swallowTouch = true
        try? output.display.setPower(on: true)
        logger.info("touch: display on")
        notifier?.status(statusLine)
        drawIfNeeded(force: true)
    }

    private var statusLine: String {
        var line = "showing \(photoCount) photos"
        if statistics.framesDrawn > 0 { line += "; \(statistics.summary)" }
        return line
    }
}
