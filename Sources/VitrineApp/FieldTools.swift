import Devices

/// `vitrine displays` and `vitrine inputs` (SPEC §6): what the kernel offers and what `run` would
/// make of it with the config, as text. Both print what they could read and name what they could
/// not; only an invalid config stops them (status 2, as for `run`).
public enum FieldTools {
    public static func displays(configPath: String, explicitConfig: Bool) throws -> String {
        let settings = try SettingsFile.load(path: configPath, mustExist: explicitConfig)
        return "config: \(configPath)\n" + DisplaysReport.read(settings: settings.display).text
    }

    public static func inputs(configPath: String, explicitConfig: Bool) throws -> String {
        let settings = try SettingsFile.load(path: configPath, mustExist: explicitConfig)
        return "config: \(configPath)\n"
            + InputsReport.read(settings: settings.input, displayRotation: settings.display.rotation).text
    }
}
