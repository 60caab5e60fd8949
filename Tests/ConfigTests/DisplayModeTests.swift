import Testing
@testable import Config

@Suite struct DisplayModeTests {
    @Test func parsesSizeAndOptionalRate() {
        #expect(DisplayMode("1920x1080@60") == DisplayMode(width: 1920, height: 1080, refreshRate: 60))
        #expect(DisplayMode("800x480") == DisplayMode(width: 800, height: 480, refreshRate: nil))
        #expect(DisplayMode("1920x1080@60")?.description == "1920x1080@60")
        #expect(DisplayMode("800x480")?.description == "800x480")
    }

    @Test(arguments: ["", "1920", "1920x", "x1080", "1920x1080@", "1920x1080@0", "0x1080", "+1920x1080",
                      "1920X1080", "1920 x 1080", "1920x1080@60@60", "99999x1080", "1920x1080@59.94"])
    func rejectsMalformedModes(text: String) {
        #expect(DisplayMode(text) == nil)
    }
}

@Suite struct HexColorTests {
    @Test func parsesAndFormatsRRGGBB() {
        #expect(HexColor.parse("#0a0B0c") == 0x0A_0B_0C)
        #expect(HexColor.format(0x0A_0B_0C) == "#0A0B0C")
        #expect(HexColor.format(0) == "#000000")
        for text in ["0A0B0C", "#0A0B0", "#0A0B0C0", "#GGGGGG", "#+A0B0C"] {
            #expect(HexColor.parse(text) == nil, "\(text)")
        }
    }
}
