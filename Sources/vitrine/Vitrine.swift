import ArgumentParser
import CEarlySignals
import ConfigFile
import Foundation
import Linux
import VitrineApp

@main
struct Vitrine: ParsableCommand {
    /// `run`'s signals are blocked before any code runs (CEarlySignals' preinit entry, issue #22);
    /// blocking them again here costs nothing and covers a build linked without it. Every other
    /// command gives them back their default as its first step.
    static func main() {
        if vitrine_kiosk_signals_blocked_before_main() == 0 { ProcessSignals.block() }
        main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "A kiosk photo viewer for Linux touch screens: DRM/KMS output, evdev touch, the iOS Photos interaction.",
        version: vitrineVersion,
        subcommands: [Run.self, CheckConfig.self, Displays.self, Inputs.self, Simulate.self, Demo.self],
        defaultSubcommand: Run.self
    )
}

/// Prints an AppError as one line and exits with its status; anything else as a plain error.
/// SIGPIPE is ignored first: a write to a pipe nobody reads (stderr to a journal stream that went
/// away, `--trace /dev/stdout | head`) fails with EPIPE, which drops a log line or names the file,
/// instead of killing the kiosk. SIGTERM, SIGINT and SIGHUP, blocked since `main`, get their
/// default action back unless the command is the kiosk (which reads them from its signalfd).
func exitOnError(keepingKioskSignals: Bool = false, _ body: () throws -> Void) throws {
    signal(SIGPIPE, SIG_IGN)
    if !keepingKioskSignals { ProcessSignals.restoreDefault() }
    do {
        try body()
    } catch let error as AppError {
        LogLine.write("vitrine: \(error.description)\n")
        throw ExitCode(error.exitCode)
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the kiosk on the display (DRM/KMS) and touch panel (evdev).",
        discussion: """
        This is the service. Without a display (no DRM card yet, or none connected) it says \
        "waiting for a display" and waits for one. The headless demo is `vitrine demo`.
        """)

    @Option(name: .long, help: "The configuration file.")
    var config: String = KioskOptions.defaultConfigPath

    func run() throws {
        // The signals stay blocked: the kiosk's signalfd takes them, pending ones included.
        try exitOnError(keepingKioskSignals: true) {
            try KioskCommand.run(KioskOptions(configPath: config, explicitConfig: config != KioskOptions.defaultConfigPath,
                                              version: vitrineVersion))
        }
    }
}

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file and its drop-ins (FILE.d/*.toml); print each effective value and where it came from.")

    @Argument(help: "The configuration file to check.")
    var file: String

    func run() throws {
        try exitOnError {
            print(try SettingsFile.read(path: file, mustExist: true, checkingDevices: true).describe(), terminator: "")
        }
    }
}

struct Displays: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every DRM card, connector, mode, CRTC and plane, and which connector and mode run would take and why.",
        discussion: "Changes nothing on screen. A card that cannot be opened is listed with the reason.")

    @Option(name: .long, help: "The configuration file.")
    var config: String = KioskOptions.defaultConfigPath

    func run() throws {
        try exitOnError {
            print(try FieldTools.displays(configPath: config, explicitConfig: config != KioskOptions.defaultConfigPath),
                  terminator: "")
        }
    }
}

struct Inputs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every input device (/dev/input/event*), its capabilities and axes, and what run makes of it.",
        discussion: "Reads no events and grabs nothing. A device that cannot be opened is listed with the reason.")

    @Option(name: .long, help: "The configuration file.")
    var config: String = KioskOptions.defaultConfigPath

    func run() throws {
        try exitOnError {
            print(try FieldTools.inputs(configPath: config, explicitConfig: config != KioskOptions.defaultConfigPath),
                  terminator: "")
        }
    }
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the app headless at 60 Hz of virtual time, replaying touches from an evemu recording.")

    @Option(name: .long, help: "The configuration file (default: all defaults).")
    var config: String?

    @Option(name: .long, help: "The screen size, WxH, e.g. 1280x800.")
    var size: String

    @Option(name: .long, help: "The photo folder, overriding photos.directory.")
    var photos: String?

    @Option(name: .long, help: "An evemu-record recording (or .desc,.events) to replay; its first event happens at 0.5 s.")
    var replay: String?

    @Option(name: .long, help: "Write one JSON line per frame to this file.")
    var trace: String?

    @Option(name: .long, help: "Times in seconds at which to save PNG snapshots, comma separated.")
    var snapshot: String?

    @Option(name: .long, help: "The folder for snapshots.")
    var out: String = "."

    @Option(name: .long, help: "Seconds of virtual time to simulate (default: until the replay has ended and the scene is at rest).")
    var duration: Double?

    @Flag(name: .long, help: "Print the frames drawn, the renderer's time and the touch latency: frames N, draw p50 X ms, p99 Y ms, max Z ms, ..., latency p50 X ms, p99 Y ms.")
    var stats = false

    @Option(name: .long, help: "The local wall-clock time at t = 0, YYYY-MM-DDTHH:MM:SS, for the opening hours (default: now).")
    var clock: String?

    func run() throws {
        try exitOnError {
            let options = try SimulationOptions(
                configPath: config, size: size, photosDirectory: photos, replayPath: replay,
                tracePath: trace, snapshotTimes: snapshot, outputDirectory: out, duration: duration, stats: stats,
                clock: clock)
            try Simulator.run(options)
        }
    }
}

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the demo tour headless to PNG files and a trace, for a machine without a display.")

    @Option(name: .long, help: "The configuration file (default: all defaults); its photos, else the bundled samples.")
    var config: String?

    @Option(name: .long, help: "The folder for the PNGs and trace.jsonl.")
    var out: String = "vitrine-tour"

    @Option(name: .long, help: "The screen size, WxH.")
    var size: String = "1920x1080"

    func run() throws {
        try exitOnError {
            try DemoCommand.run(try DemoCommand.Options(configPath: config, directory: out, size: size))
        }
    }
}
