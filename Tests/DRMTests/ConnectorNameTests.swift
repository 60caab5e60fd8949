import Testing
@testable import DRM

/// The names must be the kernel's (drm_connector_enum_list), since users copy them from
/// /sys/class/drm/card0-HDMI-A-1 into display.connector.
@Suite struct ConnectorNameTests {
    @Test(arguments: [
        (UInt32(1), UInt32(1), "VGA-1"), (3, 2, "DVI-D-2"), (7, 1, "LVDS-1"), (10, 1, "DP-1"), (11, 1, "HDMI-A-1"),
        (11, 2, "HDMI-A-2"), (12, 1, "HDMI-B-1"), (14, 1, "eDP-1"), (15, 1, "Virtual-1"), (16, 1, "DSI-1"),
        (17, 1, "DPI-1"), (18, 1, "Writeback-1"), (19, 1, "SPI-1"), (20, 1, "USB-1"), (0, 1, "Unknown-1"),
    ])
    func kernelNames(type: UInt32, index: UInt32, name: String) {
        #expect(Connector.name(type: type, typeID: index) == name)
    }

    @Test func aTypeNewerThanThisTableStillGetsAName() {
        #expect(Connector.name(type: 42, typeID: 1) == "Unknown42-1")
    }
}
