import Config
import Testing
import Touch
@testable import DRM
@testable import Devices

/// What `vitrine inputs` and `vitrine displays` print, from plain values.
@Suite struct InputsReportTests {
    static func report(_ devices: [InputsReport.Device], settings: Settings.Input = Settings.Input(),
                       displayRotation: Settings.Rotation? = nil, namedNode: String? = nil) -> InputsReport {
        InputsReport(directory: "/dev/input", listingProblem: nil, devices: devices, settings: settings,
                     displayRotation: displayRotation, namedNode: namedNode)
    }

    static let screen = InputsReport.Device(path: "/dev/input/event5", description: InputRoleTests.touchscreen)
    static let keyboard = InputsReport.Device(path: "/dev/input/event1", description: InputRoleTests.keyboard)

    @Test func aTouchScreenShowsItsAxesProtocolAndMapping() {
        let text = Self.report([Self.screen], displayRotation: .quarter).text
        #expect(text.contains("/dev/input/event5: \"test\"\n"))
        #expect(text.contains("  properties: direct\n"))
        #expect(text.contains("  ABS_MT_POSITION_X: 0...1279, resolution 10/mm\n"))
        #expect(text.contains("  ABS_MT_SLOT: 0...9\n"))
        #expect(text.contains("  touch: multitouch protocol B, 10 slots, a touch screen\n"))
        // The panel is turned a quarter clockwise: its touch layer's origin is the scene's bottom left.
        #expect(text.contains("  run: touch screen, multitouch protocol B, 10 slots; mapping: rotation 90° (follows display.rotation), no swap or inversion, no calibration, the device's (x min, y min) is the screen's bottom left; grabbed (input.grab)\n"))
        #expect(!text.contains("no touch screen"))
    }

    @Test func withoutARotationInTheConfigTheMappingWaitsForThePanel() {
        let text = Self.report([Self.screen]).text
        #expect(text.contains("mapping: follows the display's rotation, display.rotation = auto: the panel orientation (see vitrine displays), no swap or inversion"))
    }

    @Test func aKeyboardIsKeysAndTheLackOfATouchScreenIsSaid() {
        let text = Self.report([Self.keyboard]).text
        #expect(text.contains("  keys: 120 keyboard keys (Esc yes, Back no)\n"))
        #expect(text.contains("  run: keys: Esc/Back close the photo\n"))
        #expect(text.hasSuffix("no touch screen for run: it waits for one to appear\n"))
    }

    @Test func inputDeviceLeavesTheOthersOut() {
        var settings = Settings.Input()
        settings.device = "/dev/input/by-id/panel"
        let text = Self.report([Self.keyboard, Self.screen], settings: settings, namedNode: "/dev/input/event5").text
        #expect(text.contains("  run: ignored: input.device names /dev/input/by-id/panel\n"))
        #expect(text.contains("  run: touch screen, multitouch protocol B"))
        let missing = Self.report([Self.keyboard], settings: settings, namedNode: "/dev/input/by-id/panel").text
        #expect(missing.contains("input.device = /dev/input/by-id/panel is not among them; run waits for it to appear\n"))
    }

    @Test func aDeviceThatCannotBeOpenedNamesTheGroupToJoin() {
        let problem = FieldAccess.permissionDenied("/dev/input/event2", group: "input")
        let text = Self.report([InputsReport.Device(path: "/dev/input/event2", problem: problem)]).text
        #expect(text.hasPrefix("/dev/input/event2: cannot open: permission denied (EACCES) on /dev/input/event2, which belongs to group input: add the user to group input, or run as root\n"))
    }

    @Test func noDevicesAtAll() {
        #expect(Self.report([]).text == "no input device: /dev/input has no event* nodes\nno touch screen for run: it waits for one to appear\n")
    }
}

@Suite struct DisplaysReportTests {
    static let connector = Connector(id: 36, name: "Virtual-1", status: .connected, modes: [
        DisplayMode(width: 1280, height: 800, refreshRate: 60, isPreferred: true),
        DisplayMode(width: 1920, height: 1080, refreshRate: 60),
        DisplayMode(width: 1920, height: 1080, refreshRate: 60),
    ], encoderIDs: [37], currentEncoderID: 0)
    static let inventory = CardInventory(
        connectors: [.init(connector: connector, monitorName: "QEMU Monitor",
                           properties: [.init(name: "DPMS", id: 2, value: "On")], panelOrientation: nil)],
        encoders: [Encoder(id: 37, currentCRTCID: 0, possibleCRTCs: 1)],
        crtcs: [.init(id: 35, framebufferID: 0, mode: nil)],
        planes: [.init(id: 31, kind: "Primary", possibleCRTCIDs: [35], crtcID: 0, formats: ["XR24", "AR24"])],
        planesError: nil)
    static let card = DisplaysReport.Card(path: "/dev/dri/card0", driver: "virtio_gpu 0.1.0 (virtio GPU)", inventory: inventory)

    static func report(_ outcome: DisplaysReport.Outcome, settings: Settings.Display = Settings.Display(),
                       cards: [DisplaysReport.Card] = [card]) -> String {
        DisplaysReport(directory: "/dev/dri", listingProblem: nil, cards: cards, settings: settings, outcome: outcome).text
    }

    @Test func everyObjectOfTheCardIsListed() {
        let text = Self.report(.waits("x"))
        #expect(text.hasPrefix("""
            card /dev/dri/card0: driver virtio_gpu 0.1.0 (virtio GPU)
              connector Virtual-1 (id 36): connected, monitor "QEMU Monitor", encoders 37
                modes: 1280x800@60 (preferred), 1920x1080@60
                properties: DPMS (id 2) On, no panel orientation
              encoder 37: can drive CRTC 35
              CRTC 35: off
              plane 31 (Primary): for CRTC 35, formats XR24 AR24

            """))
    }

    @Test func theChoiceSaysWhy() {
        let choice = ModeSelection.Choice(connector: Self.connector, mode: Self.connector.modes[0], encoderID: 37, crtcID: 35)
        let text = Self.report(.takes(card: "/dev/dri/card0", choice: choice))
        #expect(text.hasSuffix("""
            run would take: card /dev/dri/card0, connector Virtual-1, mode 1280x800@60, CRTC 35 via encoder 37
              card: the first card with a connected connector, in numeric order (display.card = auto)
              connector: the first connected one (display.connector = auto)
              mode: the connector's preferred mode (display.mode = auto)
              CRTC: the first free one its encoders can drive
              rotation: 0° from the panel orientation, absent: normal (display.rotation = auto); the scene is 1280x800

            """))
        var settings = Settings.Display()
        settings.connector = "Virtual-1"
        settings.mode = ModeRequest(width: 1920, height: 1080)
        settings.rotation = .quarter
        let chosen = ModeSelection.Choice(connector: Self.connector, mode: Self.connector.modes[1], encoderID: 37, crtcID: 35)
        let configured = Self.report(.takes(card: "/dev/dri/card0", choice: chosen), settings: settings)
        #expect(configured.contains("  connector: display.connector = Virtual-1\n"))
        #expect(configured.contains("  mode: display.mode = 1920x1080\n"))
        #expect(configured.contains("  rotation: 90° (display.rotation); the scene is 1080x1920\n"))
    }

    @Test func noCardAndCardsThatCannotBeOpenedAreSaidSo() {
        #expect(Self.report(.waits("no DRM device: /dev/dri has no card* nodes"), cards: []) == """
            no DRM card: /dev/dri has no card* nodes (is the GPU's kernel driver loaded?)
            run would wait for a display: no DRM device: /dev/dri has no card* nodes

            """)
        let refused = DisplaysReport.Card(path: "/dev/dri/card1", problem: "cannot open: permission denied")
        #expect(Self.report(.stops("boom"), cards: [refused]) == "card /dev/dri/card1: cannot open: permission denied\nrun would stop: boom\n")
    }

    @Test func longModeListsAreWrapped() {
        let modes = (0..<30).map { "\(1000 + $0)x\(600 + $0)@60" }
        let lines = DisplaysReport.wrapped(modes, first: "    modes: ", rest: "      ")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 100 })
        #expect(lines.joined(separator: " ").split(separator: " ").count == 31)
    }
}
