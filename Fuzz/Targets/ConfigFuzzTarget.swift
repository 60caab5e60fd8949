import Config
import ConfigFile

/// The `config` fuzz target: the bytes as the text of one config file, loaded into `Settings` with
/// the schema, as `check-config` and `run` load `/etc/vitrine/vitrine.toml`. (Drop-in folders do
/// not exist yet; when they do, this target should split its input into several files.)
public enum ConfigFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// Refused, with the located problems the user would read.
        case rejected(String)
        case loaded
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            _ = try ConfigLoader.parse(text, path: "fuzz.toml")
            return .loaded
        } catch {
            return .rejected(error.description)
        }
    }
}
