import Config
import DRM
import Linux
import Logging
import SystemPackage

/// The display as the kiosk keeps it through hotplug (SPEC §7): taken when there is one, waited for
/// when there is none yet (no card because the driver loads late, no screen plugged in), and probed
/// again when the kernel reports a change on the card (unplugged, plugged in again).
public final class DisplayConnection {
    public enum Change: Equatable {
        /// The display was taken: the app starts drawing on `output`.
        case opened
        /// Still no display, for this reason (logged and reported once per new reason).
        case waiting(String)
        /// The display in use was unplugged; nothing can be shown until it returns.
        case disconnected(connector: String)
        /// It came back with the mode in use, which is set again: draw the whole frame.
        case reconnected(connector: String)
    }

    public private(set) var output: DisplayOutput?
    /// False while the display in use is unplugged.
    public private(set) var isConnected = true
    private let settings: Settings.Display
    private let logger: Logger
    private var waitingReason: String?

    public init(settings: Settings.Display, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Tries to take the display. Throws only what a display appearing later would not cure
    /// (permissions, a connector that does not exist, a mode it does not offer...).
    public func open() throws -> Change? {
        guard output == nil else { return nil }
        do {
            output = try DisplayOutput(settings: settings, logger: logger)
            waitingReason = nil
            return .opened
        } catch let error as DRMError where error.meansNoDisplayYet || (waitingReason != nil && error.isPermissionDenied) {
            // A card that appears while we wait is made root-only by the kernel and given its group
            // by udev a moment later: permission denied then means "not yet", and the next tick
            // looks again. (A card there from the start with the wrong group is the error it says.)
            let reason = error.isPermissionDenied ? "\(error) (udev may not have set its group yet)" : "\(error)"
            guard reason != waitingReason else { return nil }
            waitingReason = reason
            logger.notice("waiting for a display: \(reason)")
            return .waiting(reason)
        }
    }

    /// Kernel device events. Waiting: any DRM event (a card added, a connector changed) is a reason
    /// to look again. Running: a "change" on our card means a display may have been plugged in or
    /// pulled out (real hotplugs carry HOTPLUG=1; a write to the card's uevent file nothing more).
    /// `keepDark`: the kiosk is blanked, a display that comes back stays off.
    public func handle(_ events: [UeventMonitor.Event], keepDark: Bool) throws -> Change? {
        let drm = events.filter { $0.subsystem == "drm" }
        guard !drm.isEmpty else { return nil }
        guard let output else { return try open() }
        let path = output.display.card.path
        guard drm.contains(where: { $0.action == "change" && ($0.deviceName.map { "/dev/" + $0 == path } ?? true) }) else {
            return nil
        }
        return try probe(output, keepDark: keepDark)
    }

    /// Looks at the connector again. Back with the mode in use: set it again. Back without it: an
    /// error, so that the service manager starts vitrine again to pick the new display's mode.
    private func probe(_ output: DisplayOutput, keepDark: Bool) throws -> Change? {
        let display = output.display
        let name = display.connector.name
        let connected: Bool
        do {
            connected = try display.connectorStatus() != .disconnected
        } catch {
            logger.error("display: probing \(name): \(error)")
            return nil
        }
        if !connected, isConnected {
            isConnected = false
            logger.warning("display: \(name) disconnected; waiting for it to come back")
            return .disconnected(connector: name)
        }
        guard connected, !isConnected else { return nil }
        do {
            guard try display.connectorOffersCurrentMode() else {
                throw DisplayError("display: \(name) came back without mode \(display.modeInfo); exiting to start again with its mode")
            }
            try display.reactivate()
            if keepDark { try? display.setPower(on: false) }
        } catch let error as DisplayError {
            throw error
        } catch {
            throw DisplayError("display: \(name) came back but cannot be shown: \(error)")
        }
        isConnected = true
        logger.info("display: \(name) connected again")
        return .reconnected(connector: name)
    }

    /// Restores what was on screen before and lets the card go.
    public func close() {
        output?.close(logger: logger)
        output = nil
    }
}

/// A display problem the kiosk cannot wait out; the message says what happened.
public struct DisplayError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension DRMError {
    var isPermissionDenied: Bool {
        if case .permissionDenied = self { return true }
        return false
    }

    /// Errors that a display appearing later cures: no card yet (a late driver), no screen plugged
    /// in, or the configured card's node not there yet.
    var meansNoDisplayYet: Bool {
        switch self {
        case .noDevices, .noConnectedCard, .connectorDisconnected:
            return true
        case let .system(error):
            // The node not there yet, or there before its driver has finished probing.
            guard error.call == "open" else { return false }
            switch error.errno {
            case .noSuchFileOrDirectory?, .operationNotSupportedByDevice?, .noSuchAddressOrDevice?: return true
            default: return false
            }
        default:
            return false
        }
    }
}
