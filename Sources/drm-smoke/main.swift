// drm-smoke: takes the display, shows two known frames, gives it back.
//
//   drm-smoke [--card /dev/dri/cardN] [--connector NAME] [--mode WxH[@HZ]]
//
// Frame 1 is pure blue; each SIGUSR1 moves on to the next frame (see `steps`); SIGUSR2 turns the
// display off and on (DPMS); SIGTERM or SIGINT restores the CRTC and exits 0. Each frame prints a "drm-smoke: frame N ... on screen" line on
// stdout once its flip has completed, so a test can take a screenshot exactly then.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Blitter
import Config
import DRM
import Geometry

func fail(_ message: String) -> Never {
    fputs("drm-smoke: \(message)\n", stderr)
    exit(1)
}

func say(_ message: String) {
    print("drm-smoke: \(message)")
    fflush(stdout)
}

var cardPath: String?
var connectorName: String?
var mode: ModeRequest?
var arguments = CommandLine.arguments.dropFirst()
func value(after option: String) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--card": cardPath = value(after: argument)
    case "--connector": connectorName = value(after: argument)
    case "--mode":
        let text = value(after: argument)
        guard let request = ModeRequest(text) else {
            fail("bad mode \"\(text)\": write it as WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60")
        }
        mode = request
    default: fail("unknown argument \(argument); usage: drm-smoke [--card PATH] [--connector NAME] [--mode WxH[@HZ]]")
    }
}

// The signals stay blocked and are taken with sigwait, so no handler runs at a random point.
var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGTERM, SIGINT, SIGUSR1, SIGUSR2] { sigaddset(&signals, signal) }
sigprocmask(SIG_BLOCK, &signals, nil)

let card: DRMCard
let display: KMSDisplay
do {
    card = try cardPath.map { try DRMCard(path: $0) } ?? DRMCard.discover()
    display = try KMSDisplay(card: card, connector: connectorName, mode: mode)
} catch {
    fail("\(error)")
}
fputs(display.describe() + "\n", stderr)

/// Blocks until SIGTERM, SIGINT or SIGUSR1 arrives; the flip is complete, so no events are due.
/// SIGUSR2 meanwhile turns the display off or back on (DPMS).
func waitForSignal() -> Int32 {
    while true {
        var signal: Int32 = 0
        while sigwait(&signals, &signal) != 0 {}
        guard signal == SIGUSR2 else { return signal }
        do {
            try display.setPower(on: !display.isPoweredOn)
            say("power \(display.isPoweredOn ? "on" : "off")")
        } catch {
            fputs("drm-smoke: \(error)\n", stderr)
        }
    }
}

/// The frames, one per step: each SIGUSR1 moves on to the next. Steps 3 and 4 change only a band
/// of rows and say so (dirtyRows), which checks that the buffer that missed a frame catches up.
let width = display.modeInfo.width, height = display.modeInfo.height
let band = height / 8
var frame = Bitmap(width: width, height: height, color: Pixel.rgb(0, 0, 255))
func fill(_ rows: Range<Int>, _ columns: Range<Int>, _ color: UInt32) {
    for y in rows { for x in columns { frame[x, y] = color } }
}
let steps: [(name: String, draw: () -> Range<Int>?)] = [
    ("frame 1 blue", { nil }),
    ("frame 2 red|green", {
        fill(0..<height, 0..<(width / 2), Pixel.rgb(255, 0, 0))
        fill(0..<height, (width / 2)..<width, Pixel.rgb(0, 255, 0))
        return nil
    }),
    ("frame 3 yellow top", { fill(0..<band, 0..<width, Pixel.rgb(255, 255, 0)); return 0..<band }),
    ("frame 4 white bottom", { fill((height - band)..<height, 0..<width, Pixel.white); return (height - band)..<height }),
    ("frame 5 magenta centred", {
        frame = Bitmap(width: width / 2, height: height / 2, color: Pixel.rgb(255, 0, 255))
        return nil
    }),
]

var status: Int32 = 0
var signal = SIGUSR1
for step in steps where signal == SIGUSR1 {
    let dirtyRows = step.draw()
    do {
        try display.present(frame, dirtyRows: dirtyRows.map { RowSet($0) })
        guard try display.waitForFlip(timeout: 2) else { throw DRMError.flipTimedOut(seconds: 2) }
    } catch {
        fputs("drm-smoke: \(step.name): \(error)\n", stderr)
        status = 1
        break
    }
    say("\(step.name) on screen (flip \(display.flipCount), sequence \(display.lastFlipSequence), t \(display.lastFlipTime ?? -1))")
    signal = waitForSignal()
}
while signal == SIGUSR1 && status == 0 { signal = waitForSignal() }
say("signal \(signal), restoring the CRTC")
if let error = display.close() {
    fputs("drm-smoke: \(error)\n", stderr)
    status = 1
}
card.close()
say("exit \(status)")
exit(status)
