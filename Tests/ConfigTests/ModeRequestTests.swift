import Testing
import Config
@testable import ConfigFile

@Suite struct ModeRequestTests {
    @Test func parsesSizeAndOptionalRate() {
        #expect(ModeRequest("1920x1080@60") == ModeRequest(width: 1920, height: 1080, refreshRate: 60))
        #expect(ModeRequest("800x480") == ModeRequest(width: 800, height: 480, refreshRate: nil))
        #expect(ModeRequest("1920x1080@60")?.description == "1920x1080@60")
        #expect(ModeRequest("800x480")?.description == "800x480")
    }

    /// The rate is in whole hertz (a connector's 59.94 Hz mode matches 60); no signs, spaces,
    /// capital X or second @.
    @Test(arguments: ["", "1920", "1920x", "x1080", "1920x1080@", "@60", "1920x1080@0", "0x1080", "1920x-1",
                      "+1920x1080", "1920X1080", "1920 x 1080", "wide x tall", "1920x1080@60@60", "99999x1080",
                      "1920x1080@59.94", "1920x1080@inf", "1920x1080@nan"])
    func rejectsMalformedModes(text: String) {
        #expect(ModeRequest(text) == nil)
    }

    @Test func aMalformedModeIsAConfigErrorAtItsLine() throws {
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[display]\nconnector = \"HDMI-A-1\"\nmode = \"1920x1080@59.94\"\n", path: "mode.toml")
        }
        #expect(error?.problems.map(\.kind) == [.badFormat])
        #expect(error?.problems.first?.line == 3)
        #expect(error?.problems.first?.key == "display.mode")
    }

    @Test func theParsedModeIsWrittenBackAsItWasWritten() throws {
        var settings = Settings()
        settings.display.mode = ModeRequest("1280x800@60")
        #expect(settings.describe().contains("\nmode = \"1280x800@60\"\n"))
        #expect(try ConfigLoader.parse(settings.describe(), path: "describe.toml").display.mode == settings.display.mode)
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
