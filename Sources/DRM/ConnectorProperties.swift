import CDRM

/// The connector properties Vitrine uses, named as the kernel names them.
enum ConnectorProperty: String, CaseIterable, Sendable {
    case dpms = "DPMS"
    case panelOrientation = "panel orientation"
    /// A blob: the display's EDID, for its monitor name (`vitrine displays`).
    case edid = "EDID"
}

/// How a panel is mounted, from the connector's "panel orientation" property.
public enum PanelOrientation: String, Sendable {
    case normal = "Normal"
    case upsideDown = "Upside Down"
    case leftSideUp = "Left Side Up"
    case rightSideUp = "Right Side Up"
}

/// Property ids and values looked up once per connector (weston's habit), so setting DPMS later
/// needs no search by name.
struct ConnectorProperties {
    struct Entry {
        let id: UInt32
        let value: UInt64
        /// Enum value -> name, for enum properties.
        let enumNames: [UInt64: String]
        var valueName: String? { enumNames[value] }
    }

    private(set) var entries: [ConnectorProperty: Entry] = [:]

    init(fd: Int32, connectorID: UInt32) throws {
        let props = try checkedPointer("drmModeObjectGetProperties", detail: "connector \(connectorID)") {
            drmModeObjectGetProperties(fd, connectorID, UInt32(DRM_MODE_OBJECT_CONNECTOR))
        }
        defer { drmModeFreeObjectProperties(props) }
        for index in 0..<Int(props.pointee.count_props) {
            guard let propertyID = props.pointee.props?[index], let value = props.pointee.prop_values?[index],
                  let property = drmModeGetProperty(fd, propertyID) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = withUnsafeBytes(of: property.pointee.name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let known = ConnectorProperty(rawValue: name) else { continue }
            var enumNames: [UInt64: String] = [:]
            for e in 0..<Int(max(0, property.pointee.count_enums)) {
                guard let item = property.pointee.enums?[e] else { continue }
                enumNames[item.value] = withUnsafeBytes(of: item.name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
            }
            entries[known] = Entry(id: propertyID, value: value, enumNames: enumNames)
        }
    }

    subscript(_ property: ConnectorProperty) -> Entry? { entries[property] }
}
