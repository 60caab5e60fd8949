import Config
import ConfigFile

/// Loads the settings for a command (the file and its drop-ins), turning a config error into the
/// exit status 2 of SPEC §5.
public enum SettingsFile {
    /// `mustExist`: a file the user named must be there; the default path may be missing (defaults).
    public static func load(path: String?, mustExist: Bool) throws -> Settings {
        try read(path: path, mustExist: mustExist).settings
    }

    /// The settings with where each value came from (`check-config`, which is `checkingDevices`:
    /// see `ConfigLoader.read`).
    public static func read(path: String?, mustExist: Bool, checkingDevices: Bool = false) throws -> LoadedSettings {
        do {
            guard let path else { return LoadedSettings() }
            return try ConfigLoader.read(path: path, mustExist: mustExist, checkingDevices: checkingDevices)
        } catch {
            throw AppError("invalid configuration:\n\(error.description)", exitCode: 2)
        }
    }
}
