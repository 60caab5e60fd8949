import Testing
@testable import Linux

@Suite struct UeventMonitorTests {
    static func datagram(_ fields: [String]) -> [UInt8] {
        fields.flatMap { Array($0.utf8) + [0] }
    }

    @Test func aDRMHotplugEventFromTheKernel() throws {
        let bytes = Self.datagram([
            "change@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=change",
            "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1", "CONNECTOR=34",
            "DEVNAME=dri/card0", "DEVTYPE=drm_minor", "SEQNUM=1234", "MAJOR=226", "MINOR=0",
        ])
        let event = try #require(UeventMonitor.Event.parse(bytes))
        #expect(event.action == "change")
        #expect(event.devicePath == "/devices/pci0000:00/0000:00:02.0/drm/card0")
        #expect(event.subsystem == "drm")
        #expect(event.deviceName == "dri/card0")
        #expect(event.properties["HOTPLUG"] == "1")
        #expect(event.properties["CONNECTOR"] == "34")
    }

    @Test func aValueMayHoldAnEqualsSign() throws {
        let event = try #require(UeventMonitor.Event.parse(Self.datagram(["add@/x", "MODALIAS=a=b"])))
        #expect(event.properties["MODALIAS"] == "a=b")
    }

    @Test func udevsOwnMessagesAndGarbageAreSkipped() {
        // libudev's messages start with "libudev\0" and a binary header.
        #expect(UeventMonitor.Event.parse(Self.datagram(["libudev", "\u{1}\u{2}"])) == nil)
        #expect(UeventMonitor.Event.parse([UInt8]()) == nil)
        #expect(UeventMonitor.Event.parse(Self.datagram(["@/devices/x"])) == nil)
        #expect(UeventMonitor.Event.parse(Self.datagram(["add@/x", "ACTION=remove"])) == nil)
    }

    @Test func theSocketOpensWithoutPrivileges() throws {
        let monitor = try UeventMonitor()
        defer { monitor.close() }
        #expect(monitor.fileDescriptor >= 0)
        #expect(monitor.read().allSatisfy { !$0.action.isEmpty })
    }
}
