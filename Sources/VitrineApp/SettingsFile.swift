import Config
import ConfigFile

/// Loads the settings for a command, turning a config error into the exit status 2 of SPEC §5.
public enum SettingsFile {
    /// `mustExist`: a file the user named must be there; the default path may be missing (defaults).
    public static func load(path: String?, mustExist: Bool) throws -> Settings {
        do {
            guard let path else { return Settings() }
            return mustExist ? try ConfigLoader.load(path: path) : try ConfigLoader.loadIfPresent(path: path)
        } catch {
            throw AppError("invalid configuration:\n\(error.description)", exitCode: 2)
        }
    }
}
