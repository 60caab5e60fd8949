import Glibc
import Linux
import Logging

/// The descriptors `run`'s loop owns besides the devices' and the transports': epoll itself, the
/// signals, the decoders' and the reload's eventfds, three timers (frames, housekeeping, and the opening hours' next
/// change on the wall clock, which also reports the clock being set) and the kernel's uevents.
/// Opened together, closed together in reverse; each is drained here and reported as what it means.
final class RunLoopFiles {
    /// What the descriptors report, as the runner handles it.
    struct Handlers {
        /// SIGTERM or SIGINT (logged).
        var stop: () -> Void
        /// SIGHUP.
        var reload: () -> Void
        /// A reload's reading, done off the loop, is ready to be applied.
        var reloaded: () -> Void
        /// A decoder finished an image.
        var decoded: () -> Void
        /// The frame-rate limit's wait is over.
        var frameDue: () -> Void
        /// Time for `tick` (also when the wall clock was set: the time zone is read again first).
        var tickDue: () -> Void
        var uevents: ([UeventMonitor.Event]) -> Void
    }

    let loop: EventLoop
    let signals: SignalFD
    let decoded: EventFD
    /// Signalled from the reload's thread when its reading is done.
    let reloaded: EventFD
    let frameTimer: TimerFD
    let housekeeping: TimerFD
    let scheduleTimer: TimerFD
    private var uevents: UeventMonitor?
    private let logger: Logger

    init(logger: Logger) throws {
        self.logger = logger
        // Block the signals before any thread starts, so every thread inherits the mask.
        signals = try SignalFD(signals: ProcessSignals.kiosk)
        loop = try EventLoop()
        decoded = try EventFD()
        reloaded = try EventFD()
        frameTimer = try TimerFD()
        housekeeping = try TimerFD()
        scheduleTimer = try TimerFD(clock: .wall)
    }

    /// Watches them all; without uevents (a sandbox without netlink) the caller looks for a display
    /// every tick instead.
    func watch(_ handlers: Handlers) throws {
        try loop.watch(signals.fileDescriptor) { [signals, logger] in
            for signal in signals.read() {
                switch signal {
                case SIGTERM, SIGINT:
                    logger.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                    handlers.stop()
                case SIGHUP: handlers.reload()
                default: break
                }
            }
        }
        try loop.watch(decoded.fileDescriptor) { [decoded] in
            decoded.drain()
            handlers.decoded()
        }
        try loop.watch(reloaded.fileDescriptor) { [reloaded] in
            reloaded.drain()
            handlers.reloaded()
        }
        try loop.watch(frameTimer.fileDescriptor) { [frameTimer] in
            frameTimer.drain()
            handlers.frameDue()
        }
        try loop.watch(housekeeping.fileDescriptor) { [housekeeping] in
            housekeeping.drain()
            handlers.tickDue()
        }
        try loop.watch(scheduleTimer.fileDescriptor) { [scheduleTimer, logger] in
            if scheduleTimer.drain() {
                // The wall clock was set (NTP, `date -s`): the opening hours are read again at once.
                SystemTimeZone.reload()
                logger.notice("the wall clock was set: opening hours worked out again")
            }
            handlers.tickDue()
        }
        do {
            let uevents = try UeventMonitor()
            self.uevents = uevents
            try loop.watch(uevents.fileDescriptor) { handlers.uevents(uevents.read()) }
        } catch {
            uevents?.close()
            uevents = nil
            logger.warning("not listening for display hotplug (uevents): \(error); looking again every second")
        }
    }

    /// The wall-clock timer at `alarm` (seconds since the epoch; nil: disarmed).
    func armWallClock(at alarm: Double?) {
        guard let alarm else {
            try? scheduleTimer.disarm()
            return
        }
        do {
            if try scheduleTimer.arm(at: alarm) {
                // The clock was set after the timer last fired and before it was armed again, and
                // the kernel told this call instead of a read: the opening hours are worked out
                // again at once, on the new clock (the timer fires now, then is armed anew).
                SystemTimeZone.reload()
                logger.notice("the wall clock was set: opening hours worked out again")
                try scheduleTimer.arm(at: 0)
            }
        } catch {
            logger.warning("opening hours: cannot arm the wall-clock timer: \(error)")
        }
    }

    /// Stops hearing of displays coming and going (at shutdown, before the display is restored).
    func stopUevents() {
        guard let uevents else { return }
        loop.unwatch(uevents.fileDescriptor)
        uevents.close()
        self.uevents = nil
    }

    func close() {
        stopUevents()
        scheduleTimer.close()
        housekeeping.close()
        frameTimer.close()
        reloaded.close()
        decoded.close()
        loop.close()
        signals.close()
    }
}
