// drm-smoke: takes the display, shows two known frames, gives it back.
//
//   drm-smoke [--card /dev/dri/cardN] [--connector NAME] [--mode WxH[@HZ]]
//
// Frame 1 is pure blue; SIGUSR1 moves on to frame 2 (left half red, right half green); SIGTERM or
// SIGINT restores the CRTC and exits 0. Each step prints a "drm-smoke: ..." marker line on stdout
// once the flip has completed, so a test can take a screenshot exactly then.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Blitter
import DRM

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
var modeText: String?
var arguments = CommandLine.arguments.dropFirst()
func value(after option: String) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--card": cardPath = value(after: argument)
    case "--connector": connectorName = value(after: argument)
    case "--mode": modeText = value(after: argument)
    default: fail("unknown argument \(argument); usage: drm-smoke [--card PATH] [--connector NAME] [--mode WxH[@HZ]]")
    }
}

// The signals stay blocked and are taken with sigwait, so no handler runs at a random point.
var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGTERM, SIGINT, SIGUSR1] { sigaddset(&signals, signal) }
sigprocmask(SIG_BLOCK, &signals, nil)

let card: DRMCard
let display: KMSDisplay
do {
    card = try cardPath.map { try DRMCard(path: $0) } ?? DRMCard.discover()
    display = try KMSDisplay(card: card, connector: connectorName, mode: modeText)
} catch {
    fail("\(error)")
}
defer { card.close() }
fputs(display.describe() + "\n", stderr)

/// Blocks until SIGTERM, SIGINT or SIGUSR1 arrives; the flip is complete, so no events are due.
func waitForSignal() -> Int32 {
    var signal: Int32 = 0
    while sigwait(&signals, &signal) != 0 {}
    return signal
}

func show(_ frame: Bitmap, _ name: String) -> Bool {
    do {
        try display.present(frame)
        guard try display.waitForFlip(timeout: 2) else {
            fputs("drm-smoke: flip of \(name) did not complete\n", stderr)
            return false
        }
        say("\(name) on screen (flip \(display.flipCount), sequence \(display.lastFlipSequence), t \(display.lastFlipTime ?? -1))")
        return true
    } catch {
        fputs("drm-smoke: \(error)\n", stderr)
        return false
    }
}

let width = display.modeInfo.width, height = display.modeInfo.height
var status: Int32 = 0
if show(Bitmap(width: width, height: height, color: Pixel.rgb(0, 0, 255)), "frame 1 blue") {
    var signal = waitForSignal()
    if signal == SIGUSR1 {
        var split = Bitmap(width: width, height: height, color: Pixel.rgb(0, 255, 0))
        for y in 0..<height {
            for x in 0..<(width / 2) { split[x, y] = Pixel.rgb(255, 0, 0) }
        }
        if show(split, "frame 2 red|green") {
            repeat { signal = waitForSignal() } while signal == SIGUSR1
        } else {
            status = 1
        }
    }
    say("signal \(signal), restoring the CRTC")
} else {
    status = 1
}
if let error = display.close() {
    fputs("drm-smoke: \(error)\n", stderr)
    status = 1
}
say("exit \(status)")
exit(status)
