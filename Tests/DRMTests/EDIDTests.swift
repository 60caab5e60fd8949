import Testing
@testable import DRM

@Suite struct EDIDTests {
    /// A base block with a serial-number descriptor first and the monitor name second, as
    /// monitors commonly order them.
    static func block(name: [UInt8]?) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 128)
        bytes.replaceSubrange(0..<8, with: [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00])
        bytes.replaceSubrange(72..<90, with: [0, 0, 0, 0xFF, 0] + Array("SN12345\n     ".utf8))
        if let name {
            let text = (name + [0x0A] + [UInt8](repeating: 0x20, count: 13)).prefix(13)
            bytes.replaceSubrange(90..<108, with: [0, 0, 0, 0xFC, 0] + text)
        }
        return bytes
    }

    @Test func theMonitorNameComesFromItsDescriptor() {
        #expect(EDID.monitorName(Self.block(name: Array("QEMU Monitor".utf8))) == "QEMU Monitor")
        #expect(EDID.monitorName(Self.block(name: Array("ABCDEFGHIJKLM".utf8))) == "ABCDEFGHIJKLM")
    }

    @Test func noNameABadHeaderOrAShortBlockGiveNone() {
        #expect(EDID.monitorName(Self.block(name: nil)) == nil)
        var bad = Self.block(name: Array("Panel".utf8))
        bad[0] = 1
        #expect(EDID.monitorName(bad) == nil)
        #expect(EDID.monitorName(Array(Self.block(name: Array("Panel".utf8)).prefix(100))) == nil)
    }

    @Test func bytesOutsidePrintableASCIIAreShownAsQuestionMarks() {
        #expect(EDID.monitorName(Self.block(name: [0x41, 0x1B, 0xFF, 0x42])) == "A??B")
    }

    @Test func fourccCodesPrintAsModetestPrintsThem() {
        #expect(DRMCard.fourcc(0x3432_5258) == "XR24")
        #expect(DRMCard.fourcc(0x3432_5241) == "AR24")
    }
}
