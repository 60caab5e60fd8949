import CDRM
import Linux

/// Everything `vitrine displays` shows about one card, read once as plain values: libdrm
/// modetest's dump, reduced to what an integrator needs to see what Vitrine will see.
public struct CardInventory: Sendable {
    /// A connector with the properties Vitrine uses.
    public struct ConnectorEntry: Sendable {
        public var connector: Connector
        /// The monitor's name from its EDID, when it has one.
        public var monitorName: String?
        /// DPMS, panel orientation, EDID: name, property id and value, for those the connector has.
        public var properties: [Property]
        /// How the panel is mounted; nil when the connector has no "panel orientation" property.
        public var panelOrientation: PanelOrientation?
    }

    public struct Property: Sendable, Equatable {
        public var name: String
        public var id: UInt32
        public var value: String
    }

    public struct CRTC: Sendable {
        public var id: UInt32
        /// The framebuffer on it now, 0 for none.
        public var framebufferID: UInt32
        /// The mode it shows now; nil when it is off.
        public var mode: DisplayMode?
    }

    public struct Plane: Sendable {
        public var id: UInt32
        /// "Primary", "Overlay" or "Cursor" (the plane's "type" property), "?" when not said.
        public var kind: String
        /// The CRTCs it can be shown on.
        public var possibleCRTCIDs: [UInt32]
        /// The CRTC it is on now, 0 for none.
        public var crtcID: UInt32
        /// Pixel formats as fourcc codes: "XR24", "AR24".
        public var formats: [String]
    }

    public var connectors: [ConnectorEntry]
    public var encoders: [Encoder]
    public var crtcs: [CRTC]
    public var planes: [Plane]
    /// Why the planes could not be listed (an old kernel without universal planes); nil when they were.
    public var planesError: String?
}

extension DRMCard {
    /// Reads the card's connectors, encoders, CRTCs and planes. Changes nothing on screen; asks the
    /// kernel for universal planes on this descriptor so the primary and cursor planes are listed.
    public func inventory() throws -> CardInventory {
        let fd = try fd()
        let resources = try self.resources()
        let connectors = try resources.connectorIDs.map { id -> CardInventory.ConnectorEntry in
            let properties = try ConnectorProperties(fd: fd, connectorID: id)
            var listed: [CardInventory.Property] = []
            var monitorName: String?
            for property in ConnectorProperty.allCases {
                guard let entry = properties[property] else { continue }
                var value = entry.valueName ?? String(entry.value)
                if property == .edid {
                    let bytes = propertyBlob(fd, id: UInt32(truncatingIfNeeded: entry.value))
                    monitorName = bytes.flatMap(EDID.monitorName)
                    value = bytes.map { "\($0.count) bytes" } ?? "none"
                }
                listed.append(CardInventory.Property(name: property.rawValue, id: entry.id, value: value))
            }
            let orientation = properties[.panelOrientation].map {
                $0.valueName.flatMap(PanelOrientation.init(rawValue:)) ?? .normal
            }
            return CardInventory.ConnectorEntry(connector: try connector(id: id), monitorName: monitorName,
                                                properties: listed, panelOrientation: orientation)
        }
        let crtcs = try resources.crtcIDs.map { id -> CardInventory.CRTC in
            let state = try crtcState(id: id)
            return CardInventory.CRTC(id: id, framebufferID: state.buffer_id,
                                      mode: state.mode_valid != 0 ? DisplayMode(state.mode) : nil)
        }
        var planes: [CardInventory.Plane] = []
        var planesError: String?
        do {
            planes = try self.planes(fd, crtcIDs: resources.crtcIDs)
        } catch {
            planesError = "\(error)"
        }
        return CardInventory(connectors: connectors, encoders: try encoders(), crtcs: crtcs, planes: planes,
                             planesError: planesError)
    }

    private func planes(_ fd: Int32, crtcIDs: [UInt32]) throws -> [CardInventory.Plane] {
        try checked("drmSetClientCap", detail: "\(path) universal planes") {
            drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
        }
        let resources = try checkedPointer("drmModeGetPlaneResources", detail: path) { drmModeGetPlaneResources(fd) }
        defer { drmModeFreePlaneResources(resources) }
        let ids = (0..<Int(resources.pointee.count_planes)).compactMap { resources.pointee.planes?[$0] }
        return try ids.map { id in
            let plane = try checkedPointer("drmModeGetPlane", detail: "plane \(id)") { drmModeGetPlane(fd, id) }
            defer { drmModeFreePlane(plane) }
            let p = plane.pointee
            let formats = (0..<Int(p.count_formats)).compactMap { p.formats?[$0] }.map(Self.fourcc)
            let possible = crtcIDs.enumerated().filter { $0.offset < 32 && p.possible_crtcs & (1 << UInt32($0.offset)) != 0 }
            return CardInventory.Plane(id: id, kind: planeKind(fd, id: id), possibleCRTCIDs: possible.map(\.element),
                                       crtcID: p.crtc_id, formats: formats)
        }
    }

    /// The plane's "type" property by its enum name.
    private func planeKind(_ fd: Int32, id: UInt32) -> String {
        guard let props = drmModeObjectGetProperties(fd, id, UInt32(DRM_MODE_OBJECT_PLANE)) else { return "?" }
        defer { drmModeFreeObjectProperties(props) }
        for index in 0..<Int(props.pointee.count_props) {
            guard let propertyID = props.pointee.props?[index], let value = props.pointee.prop_values?[index],
                  let property = drmModeGetProperty(fd, propertyID) else { continue }
            defer { drmModeFreeProperty(property) }
            guard cString(property.pointee.name) == "type" else { continue }
            for e in 0..<Int(max(0, property.pointee.count_enums)) {
                if let item = property.pointee.enums?[e], item.value == value { return cString(item.name) }
            }
        }
        return "?"
    }

    private func propertyBlob(_ fd: Int32, id: UInt32) -> [UInt8]? {
        guard id != 0, let blob = drmModeGetPropertyBlob(fd, id) else { return nil }
        defer { drmModeFreePropertyBlob(blob) }
        guard let data = blob.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(blob.pointee.length)))
    }

    /// A fourcc code as its four characters ("XR24"), as modetest prints it.
    static func fourcc(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * UInt32($0))) }
        return String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}

/// A fixed-size C char array (a name in a libdrm struct) as a String.
private func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
}
