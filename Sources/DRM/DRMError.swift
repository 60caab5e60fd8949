import Linux
import Quoting

/// Everything that can go wrong while taking the display. Each case prints as one line that says
/// what happened and, where there is one, what to do about it.
public enum DRMError: Error, CustomStringConvertible, Equatable {
    /// /dev/dri does not exist or has no card nodes.
    case noDevices(directory: String)
    /// Cards exist but none has a connected connector.
    case noConnectedCard(cards: [String])
    case permissionDenied(path: String)
    /// The path is there but is not a DRM card node: what it is instead ("a character device
    /// 1:3", "a regular file").
    case notACard(path: String, kind: String)
    case noDumbBuffers(path: String)
    case connectorNotFound(name: String, available: [String])
    case connectorDisconnected(name: String)
    case modeNotFound(mode: String, connector: String, available: [String])
    case noModes(connector: String)
    case noCRTC(connector: String)
    /// Another process holds DRM master, so mode setting is refused.
    case notMaster(SystemError)
    /// The previous page flip did not complete in time.
    case flipTimedOut(seconds: Double)
    case closed
    /// A C call failed; carries its name, errno and, if there is one, the object it was about.
    case system(SystemError)

    /// The configured path is not a DRM card: a configuration error, not one a wait would cure.
    public var isNotACard: Bool {
        if case .notACard = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .noDevices(let directory):
            return "no DRM device: \(directory) has no card* nodes (is the GPU's kernel driver loaded?)"
        case .noConnectedCard(let cards):
            return "no display connected: none of \(cards.joined(separator: ", ")) has a connected connector; plug in a display"
        case .permissionDenied(let path):
            return "permission denied opening \(path): add the user to group video"
        case let .notACard(path, kind):
            return "\(LogLine.escaped(path)) is \(kind), not a DRM card; expected a card node such as /dev/dri/card0 "
                + "(vitrine displays lists them)"
        case .noDumbBuffers(let path):
            return "\(path) does not support dumb buffers (DRM_CAP_DUMB_BUFFER); use a KMS driver that does"
        case .connectorNotFound(let name, let available):
            return "connector \"\(Excerpt(name))\" not found; this card has: \(available.joined(separator: ", "))"
        case .connectorDisconnected(let name):
            return "connector \(name) has no display connected; plug one in or pick another connector"
        case .modeNotFound(let mode, let connector, let available):
            return "mode \(mode) not offered by \(connector); it offers: \(available.joined(separator: ", "))"
        case .noModes(let connector):
            return "connector \(connector) reports no modes; check the cable or the display's EDID"
        case .noCRTC(let connector):
            return "no free CRTC can drive connector \(connector)"
        case .notMaster(let error):
            return "\(error.call) failed: \(error.reason); another program is the DRM master (a display server or a console compositor?); stop it"
        case .flipTimedOut(let seconds):
            return "page flip did not complete within \(seconds) s; the driver or display stopped answering"
        case .closed:
            return "the display was already closed"
        case .system(let error):
            return error.description
        }
    }
}
