import RemoteControl
import RunLoopRules
import Scene

/// What reaches the kiosk, from whatever source; `KioskSession.dispatch` is the one place that
/// decides what each does.
enum KioskEvent {
    /// A touch frame or a key (the panels and keys in `run`, a recording in `simulate`).
    case input(SceneInput)
    /// The time has come: idle return, slideshow, blanking, opening hours.
    case time
    /// A transport's action (`POST /control`; MQTT's command topic next).
    case remote(RemoteAction)
}

/// Everything the kiosk does, whoever decided it. The idle policy's `KioskPolicy.Action` and a
/// transport's `RemoteAction` map into it here; `KioskSession` applies it in one switch.
enum KioskAction: Equatable {
    /// Who turned the screen off or on: what the log and STATUS= say.
    enum Cause: Equatable {
        /// The idle policy (blanking).
        case idle
        /// A touch or key.
        case input
        /// A transport.
        case remote
    }

    /// The open photo zoomed back into the grid, scrolled to its first row (the idle return).
    case returnToGrid
    /// The slideshow's next slide (`Scene.advanceSlideshow`).
    case nextSlide
    case showNext
    case showPrevious
    /// Open (or page to) the photo at this index.
    case show(Int)
    case closePhoto
    case screenOff(Cause)
    case screenOn(Cause)
    /// Closing time (or a touch's wake while closed has run out): the grid without animation, the
    /// display off.
    case closing
    /// Opening time: the display on, the grid at its first row.
    case opening
    /// What SIGHUP does: the config and the photos read again.
    case reload

    init(_ decided: KioskPolicy.Action, by cause: Cause) {
        switch decided {
        case .returnToGrid: self = .returnToGrid
        case .nextSlide: self = .nextSlide
        case .blank: self = .screenOff(cause)
        case .wake: self = .screenOn(cause)
        case .close: self = .closing
        case .open: self = .opening
        }
    }

    /// nil for "screen_off" and "screen_on": the display's power is the policy's to decide (it knows
    /// whether the kiosk is closed or already dark), and the policy's decision maps in above.
    init?(_ remote: RemoteAction) {
        switch remote {
        case .next: self = .showNext
        case .previous: self = .showPrevious
        case .open(let index): self = .show(index)
        case .close: self = .closePhoto
        case .reload: self = .reload
        case .screenOff, .screenOn: return nil
        }
    }
}

/// The part of a kiosk action that is not the scene's: the run loop carries it out (it owns the
/// display, the files and the log); `simulate` has no display and reads `isScreenOn` instead.
enum KioskEffect: Equatable {
    /// The display off; the log line is `log` followed by "display " and how it went off.
    case screenOff(log: String, status: ServiceStatus.State)
    /// The display on; then `log` is logged and STATUS= says `status`.
    case screenOn(log: String, status: ServiceStatus.State)
    /// The config and the photos read again (SIGHUP's path).
    case reload
    /// Nothing to act on: logged, and that is all.
    case ignored(String)
}
