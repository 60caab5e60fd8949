import Config
import Testing
@testable import DRM

@Suite struct ModeSelectionTests {
    static let hdmi = Connector(id: 40, name: "HDMI-A-1", status: .connected, modes: [
        DisplayMode(width: 3840, height: 2160, refreshRate: 30),
        DisplayMode(width: 1920, height: 1080, refreshRate: 60, isPreferred: true),
        DisplayMode(width: 1920, height: 1080, refreshRate: 50),
        DisplayMode(width: 1920, height: 1080, refreshRate: 59.94),
        DisplayMode(width: 1280, height: 720, refreshRate: 50),
        DisplayMode(width: 1280, height: 720, refreshRate: 60),
    ], encoderIDs: [50])
    static let dsi = Connector(id: 41, name: "DSI-1", status: .disconnected, modes: [], encoderIDs: [51])

    // MARK: Connector

    @Test func withoutANameTheFirstConnectedConnectorIsTaken() throws {
        #expect(try ModeSelection.connector(named: nil, in: [Self.dsi, Self.hdmi]).name == "HDMI-A-1")
    }

    @Test func anUnknownNameListsTheCardsConnectors() {
        #expect(throws: DRMError.connectorNotFound(name: "HDMI-A-9", available: ["DSI-1", "HDMI-A-1"])) {
            try ModeSelection.connector(named: "HDMI-A-9", in: [Self.dsi, Self.hdmi])
        }
    }

    @Test func aNamedConnectorWithNothingPluggedInIsRefused() {
        #expect(throws: DRMError.connectorDisconnected(name: "DSI-1")) {
            try ModeSelection.connector(named: "DSI-1", in: [Self.dsi, Self.hdmi])
        }
    }

    @Test func noConnectedConnectorAtAllSaysWhatEachOneIs() {
        #expect(throws: DRMError.connectorNotFound(name: "(first connected)", available: ["DSI-1 (disconnected)"])) {
            try ModeSelection.connector(named: nil, in: [Self.dsi])
        }
    }

    // MARK: Mode

    @Test func noRequestTakesThePreferredMode() throws {
        let mode = try ModeSelection.mode(nil, for: Self.hdmi)
        #expect((mode.width, mode.height, mode.refreshRate) == (1920, 1080, 60))
    }

    @Test func noPreferredModeTakesTheFirst() throws {
        let plain = Connector(id: 1, name: "VGA-1", status: .connected,
                              modes: [DisplayMode(width: 1024, height: 768, refreshRate: 60),
                                      DisplayMode(width: 800, height: 600, refreshRate: 60)], encoderIDs: [])
        #expect(try ModeSelection.mode(nil, for: plain).width == 1024)
    }

    @Test func aSizeAlonePrefersThePreferredModeThenTheHighestRefresh() throws {
        #expect(try ModeSelection.mode(ModeRequest(width: 1920, height: 1080), for: Self.hdmi).isPreferred)
        #expect(try ModeSelection.mode(ModeRequest(width: 1280, height: 720), for: Self.hdmi).refreshRate == 60)
    }

    @Test func aRefreshPicksAmongTheSameSize() throws {
        #expect(try ModeSelection.mode(ModeRequest(width: 1920, height: 1080, refreshRate: 50), for: Self.hdmi).refreshRate == 50)
        // 60 matches both 60 and 59.94; the preferred one wins.
        #expect(try ModeSelection.mode(ModeRequest(width: 1920, height: 1080, refreshRate: 60), for: Self.hdmi).isPreferred)
    }

    @Test func aRefreshWithinHalfAHertzMatches() {
        let sixty = ModeRequest(width: 1920, height: 1080, refreshRate: 60)
        #expect(sixty.matches(DisplayMode(width: 1920, height: 1080, refreshRate: 59.94)))
        #expect(sixty.matches(DisplayMode(width: 1920, height: 1080, refreshRate: 60)))
        #expect(!sixty.matches(DisplayMode(width: 1920, height: 1080, refreshRate: 50)))
        #expect(!sixty.matches(DisplayMode(width: 1280, height: 720, refreshRate: 60)))
        #expect(ModeRequest(width: 1920, height: 1080).matches(DisplayMode(width: 1920, height: 1080, refreshRate: 50)))
    }

    @Test func aModeNotOfferedListsEachOfferedModeOnce() {
        #expect(throws: DRMError.modeNotFound(mode: "1234x567", connector: "HDMI-A-1", available: [
            "3840x2160@30", "1920x1080@60", "1920x1080@50", "1920x1080@59.94", "1280x720@50", "1280x720@60",
        ])) {
            try ModeSelection.mode(ModeRequest(width: 1234, height: 567), for: Self.hdmi)
        }
    }

    @Test func aConnectorWithoutModesIsAnError() {
        #expect(throws: DRMError.noModes(connector: "DSI-1")) { try ModeSelection.mode(nil, for: Self.dsi) }
    }

    // MARK: CRTC

    @Test func theCRTCOnScreenNowIsKept() throws {
        let connector = Connector(id: 40, name: "HDMI-A-1", status: .connected, modes: [], encoderIDs: [50, 51],
                                  currentEncoderID: 51)
        let encoders = [Encoder(id: 50, currentCRTCID: 0, possibleCRTCs: 0b11),
                        Encoder(id: 51, currentCRTCID: 61, possibleCRTCs: 0b10)]
        let picked = try ModeSelection.crtc(for: connector, encoders: encoders, crtcIDs: [60, 61])
        #expect(picked.encoderID == 51 && picked.crtcID == 61)
    }

    @Test func otherwiseTheFirstPossibleFreeCRTC() throws {
        let encoders = [Encoder(id: 50, currentCRTCID: 0, possibleCRTCs: 0b110)]
        let picked = try ModeSelection.crtc(for: Self.hdmi, encoders: encoders, crtcIDs: [60, 61, 62])
        #expect(picked.encoderID == 50 && picked.crtcID == 61)
        let busy = try ModeSelection.crtc(for: Self.hdmi, encoders: encoders, crtcIDs: [60, 61, 62], busyCRTCs: [61])
        #expect(busy.crtcID == 62)
    }

    @Test func noPossibleCRTCIsAnError() {
        let encoders = [Encoder(id: 50, currentCRTCID: 0, possibleCRTCs: 0b100)]
        #expect(throws: DRMError.noCRTC(connector: "HDMI-A-1")) {
            try ModeSelection.crtc(for: Self.hdmi, encoders: encoders, crtcIDs: [60, 61])
        }
    }
}
