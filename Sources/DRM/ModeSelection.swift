import Config

extension ModeRequest {
    /// Same size; a refresh of 60 matches 59.94 and 60.00 (within half a hertz counts as the same).
    func matches(_ mode: DisplayMode) -> Bool {
        guard mode.width == width, mode.height == height else { return false }
        guard let refreshRate else { return true }
        return abs(mode.refreshRate - Double(refreshRate)) < 0.5
    }
}

/// Picks connector, mode and CRTC from plain values, the way modetest and weston do.
public enum ModeSelection {
    /// What `KMSDisplay` takes on a card.
    public struct Choice: Sendable {
        public let connector: Connector
        public let mode: DisplayMode
        public let encoderID: UInt32
        public let crtcID: UInt32
    }

    /// The connector (by name, nil: the first connected one), the mode that matches `request`
    /// (nil: the preferred mode, else the first) and a CRTC for them on `card`, as `KMSDisplay`
    /// takes them and `vitrine displays` reports them. Reads the card; changes nothing.
    public static func choose(on card: DRMCard, connector name: String?, mode request: ModeRequest?) throws -> Choice {
        let connector = try connector(named: name, in: try card.connectors())
        let mode = try mode(request, for: connector)
        let (encoderID, crtcID) = try crtc(for: connector, encoders: try card.encoders(), crtcIDs: try card.crtcIDs())
        return Choice(connector: connector, mode: mode, encoderID: encoderID, crtcID: crtcID)
    }

    /// The named connector, or the first connected one when `name` is nil.
    public static func connector(named name: String?, in connectors: [Connector]) throws -> Connector {
        if let name {
            guard let connector = connectors.first(where: { $0.name == name }) else {
                throw DRMError.connectorNotFound(name: name, available: connectors.map(\.name))
            }
            guard connector.status != .disconnected else { throw DRMError.connectorDisconnected(name: name) }
            return connector
        }
        if let connected = connectors.first(where: { $0.status == .connected }) { return connected }
        throw DRMError.connectorNotFound(name: "(first connected)", available: connectors.map { "\($0.name) (\($0.status))" })
    }

    /// The requested mode; with no request the preferred mode, else the first one listed.
    public static func mode(_ request: ModeRequest?, for connector: Connector) throws -> DisplayMode {
        guard !connector.modes.isEmpty else { throw DRMError.noModes(connector: connector.name) }
        guard let request else {
            return connector.modes.first(where: \.isPreferred) ?? connector.modes[0]
        }
        // Among equal sizes prefer the preferred mode, then the highest refresh.
        let candidates = connector.modes.filter(request.matches)
        if let best = candidates.max(by: { ($0.isPreferred ? 1 : 0, $0.refreshRate) < ($1.isPreferred ? 1 : 0, $1.refreshRate) }) {
            return best
        }
        var seen = Set<String>()
        let available = connector.modes.map(\.description).filter { seen.insert($0).inserted }
        throw DRMError.modeNotFound(mode: request.description, connector: connector.name, available: available)
    }

    /// An encoder and CRTC that can drive the connector. The ones on screen now come first, so
    /// taking over from a console keeps the same pipe; otherwise the first CRTC any of the
    /// connector's encoders can use (its bit in possible_crtcs) and no other connector claims.
    public static func crtc(for connector: Connector, encoders: [Encoder], crtcIDs: [UInt32],
                            busyCRTCs: Set<UInt32> = []) throws -> (encoderID: UInt32, crtcID: UInt32) {
        let byID = Dictionary(encoders.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let current = byID[connector.currentEncoderID], current.currentCRTCID != 0,
           crtcIDs.contains(current.currentCRTCID) {
            return (current.id, current.currentCRTCID)
        }
        for encoderID in connector.encoderIDs {
            guard let encoder = byID[encoderID] else { continue }
            for (index, crtcID) in crtcIDs.enumerated() where index < 32 {
                if encoder.possibleCRTCs & (1 << UInt32(index)) != 0 && !busyCRTCs.contains(crtcID) {
                    return (encoder.id, crtcID)
                }
            }
        }
        throw DRMError.noCRTC(connector: connector.name)
    }
}
