import CDRM

public enum ConnectorStatus: String, Sendable {
    case connected, disconnected, unknown

    init(_ connection: drmModeConnection) {
        switch connection {
        case DRM_MODE_CONNECTED: self = .connected
        case DRM_MODE_DISCONNECTED: self = .disconnected
        default: self = .unknown
        }
    }
}

/// A snapshot of one connector as the kernel reported it.
public struct Connector: Sendable {
    public let id: UInt32
    /// The kernel's name: type name and per-type index, e.g. "HDMI-A-1", "Virtual-1".
    public let name: String
    public let status: ConnectorStatus
    /// Physical size of the display in millimetres (0 when unknown).
    public let widthMillimetres: Int
    public let heightMillimetres: Int
    public let modes: [DisplayMode]
    public let encoderIDs: [UInt32]
    /// The encoder driving this connector now, or 0.
    public let currentEncoderID: UInt32

    public init(id: UInt32, name: String, status: ConnectorStatus, widthMillimetres: Int = 0,
                heightMillimetres: Int = 0, modes: [DisplayMode], encoderIDs: [UInt32],
                currentEncoderID: UInt32 = 0) {
        self.id = id
        self.name = name
        self.status = status
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
        self.modes = modes
        self.encoderIDs = encoderIDs
        self.currentEncoderID = currentEncoderID
    }

    init(_ raw: drmModeConnector) {
        let modes = (0..<Int(max(0, raw.count_modes))).compactMap { raw.modes?[$0] }.map(DisplayMode.init)
        let encoders = (0..<Int(max(0, raw.count_encoders))).compactMap { raw.encoders?[$0] }
        self.init(id: raw.connector_id,
                  name: Connector.name(type: raw.connector_type, typeID: raw.connector_type_id),
                  status: ConnectorStatus(raw.connection),
                  widthMillimetres: Int(raw.mmWidth), heightMillimetres: Int(raw.mmHeight),
                  modes: modes, encoderIDs: encoders, currentEncoderID: raw.encoder_id)
    }

    /// The kernel's connector type names (drm_connector_enum_list in drm_connector.c).
    static let typeNames = [
        "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component",
        "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI",
        "USB",
    ]

    public static func name(type: UInt32, typeID: UInt32) -> String {
        let typeName = Int(type) < typeNames.count ? typeNames[Int(type)] : "Unknown\(type)"
        return "\(typeName)-\(typeID)"
    }
}

/// An encoder: which CRTCs it can take its picture from.
public struct Encoder: Sendable {
    public let id: UInt32
    /// The CRTC it is attached to now, or 0.
    public let currentCRTCID: UInt32
    /// Bit i set: the i-th CRTC of the card's resources can feed this encoder.
    public let possibleCRTCs: UInt32

    public init(id: UInt32, currentCRTCID: UInt32, possibleCRTCs: UInt32) {
        self.id = id
        self.currentCRTCID = currentCRTCID
        self.possibleCRTCs = possibleCRTCs
    }
}
