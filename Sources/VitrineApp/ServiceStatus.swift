import Devices
import Linux
import Logging
import RemoteControl
import RunLoopRules

/// What systemd and the journal hear from `run` (SPEC §7): READY=1 once the first frame is on
/// screen, a STATUS= line whenever the state changes, WATCHDOG=1 at least every half interval, and
/// once a minute the frame statistics ("3520 frames, 0 dropped, frame time p50 2.1 ms, p99 4.0 ms",
/// then "; touch latency p50 12.0 ms, p99 17.5 ms" when a touch changed the picture).
/// It owns the service's facts that `/status` and `/metrics` report beside the session's: the
/// state, the library's counts, the frames, the display and input devices in use.
final class ServiceStatus {
    enum State: Equatable {
        case starting
        /// No display yet, or the one in use was unplugged: why.
        case waitingForDisplay(String)
        case showing
        case displayOff(String)
        /// The opening hours say closed: "closed until Mon 09:00".
        case closed(String)
    }

    private let notifier: ServiceNotifier?
    private let logger: Logger
    private(set) var state = State.starting
    private var readySent = false
    private var lastWatchdog = -Double.infinity
    private var minute = FrameStatistics()
    private var minuteStart: Double
    /// Frames put on screen since start.
    private(set) var framesPresented = 0
    /// Vblanks missed and every frame's compose time since start, for `/metrics`.
    private(set) var framesDropped = 0
    private(set) var frameTimes = DurationHistogram(bounds: DurationHistogram.frameTimeBounds)
    /// Every touch's latency since start (SPEC §13), for `/metrics`; the minute's are in `minute`.
    private(set) var touchLatencies = DurationHistogram(bounds: DurationHistogram.touchLatencyBounds)
    /// The photos the last scan found, and the files it left out by reason (`PhotoError.Reason.label`).
    var photoCount = 0
    var photosSkipped: [String: Int] = [:]
    /// The display in use (nil while waiting for one) and the input devices read.
    var display: RemoteSnapshot.Display?
    var inputDevices: [String] = []
    let started: Double

    init(notifier: ServiceNotifier?, logger: Logger, now: Double) {
        self.notifier = notifier
        self.logger = logger
        minuteStart = now
        started = now
        notifier?.status("starting")
    }

    /// How often `tick` must run for the watchdog.
    var tickInterval: Double { min(1, notifier?.watchdogInterval ?? 1) }

    func set(_ state: State) {
        self.state = state
        if case .closed = state, !readySent {
            // Closed at start draws no frame; the service is up all the same.
            readySent = true
            notifier?.ready(status: line)
            return
        }
        notifier?.status(line)
    }

    /// The display came, went or came back (`change`; nil: nothing new): its facts and the state.
    /// `screen`: what the session says about the screen, when there is one.
    func displayChanged(_ change: DisplayConnection.Change?, display: DisplayConnection, screen: State?) {
        if let kms = display.output?.display {
            self.display = .init(connector: kms.connector.name, mode: "\(kms.modeInfo)", connected: display.isConnected)
        }
        switch change {
        case .waiting(let why)?: set(.waitingForDisplay(why))
        case .disconnected(let connector)?: set(.waitingForDisplay("\(connector) disconnected"))
        case .reconnected?: set(screen ?? .showing)
        case .opened?, nil: break
        }
    }

    /// The photos or the settings changed.
    func refresh() { notifier?.status(line) }

    func reloading() { notifier?.reloading() }
    func reloaded() { notifier?.send("READY=1\nSTATUS=\(line)") }
    func stopping() { notifier?.stopping() }
    /// Closes the notify socket.
    func close() { notifier?.close() }

    func framePresented(composeTime: Double, missedVblanks: Int, now: Double) {
        minute.record(composeTime: composeTime, missedVblanks: missedVblanks)
        framesPresented += 1
        framesDropped += max(0, missedVblanks)
        frameTimes.record(composeTime)
        feedWatchdog(now: now)
    }

    /// A touch frame's change reached the screen `seconds` after the touch.
    func touchLatency(_ seconds: Double) {
        minute.record(latency: seconds)
        touchLatencies.record(seconds)
    }

    /// A flip completed: the first one makes the service ready.
    func frameOnScreen() {
        guard !readySent else { return }
        readySent = true
        state = .showing
        notifier?.ready(status: line)
        logger.info("first frame on screen")
    }

    /// Once a second or so from the loop: the watchdog and the minute's statistics.
    func tick(now: Double) {
        feedWatchdog(now: now)
        guard now - minuteStart >= 60 else { return }
        if minute.framesDrawn > 0 { logger.info("frames: \(minute.summary)") }
        notifier?.status(line)
        minute.reset()
        minuteStart = now
    }

    /// Fed from the frame path and the tick, both on the loop's thread: a loop that hangs stops
    /// feeding it and systemd restarts the service.
    private func feedWatchdog(now: Double) {
        guard let interval = notifier?.watchdogInterval, now - lastWatchdog >= interval / 2 else { return }
        lastWatchdog = now
        notifier?.watchdog()
    }

    var line: String {
        var showing = "showing \(photoCount) photos"
        if minute.framesDrawn > 0 { showing += "; \(minute.summary)" }
        switch state {
        case .starting: return "starting"
        case .waitingForDisplay(let why): return readySent ? "waiting for a display (\(why)); \(showing)" : "waiting for a display (\(why))"
        case .showing: return showing
        case .displayOff(let why): return "display off (\(why)); \(showing)"
        case .closed(let until): return until
        }
    }
}
