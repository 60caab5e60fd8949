import Config
import Logging

public struct KioskOptions {
    public static let defaultConfigPath = "/etc/vitrine/vitrine.toml"
    public var configPath: String
    /// A config named on the command line must exist; the default one may be missing (defaults).
    public var explicitConfig: Bool
    /// The program's version (the command line's `vitrineVersion`), which the remote server reports.
    public var version: String

    public init(configPath: String, explicitConfig: Bool, version: String) {
        self.configPath = configPath
        self.explicitConfig = explicitConfig
        self.version = version
    }
}

/// `vitrine run`: the kiosk on the DRM display, and nothing else (SPEC §7). Without a display it
/// waits for one; the headless demo is `vitrine demo`.
public enum KioskCommand {
    public static func run(_ options: KioskOptions) throws {
        let settings = try SettingsFile.load(path: options.configPath, mustExist: options.explicitConfig)
        StderrLogHandler.bootstrap(level: settings.log.level)
        let runner = try KioskRunner(settings: settings, configPath: options.configPath, version: options.version,
                                     logger: Logger(label: "vitrine"))
        defer { runner.close() }
        try runner.run()
    }
}
