import Config

extension Settings {
    /// The settings as a TOML document with every table and key, which `ConfigLoader.parse` reads
    /// back to equal settings.
    public func describe() -> String {
        describe(origins: nil)
    }

    /// With `origins`, each line says where its value came from (`# file:line`, or `# default`):
    /// what `vitrine check-config` prints.
    func describe(origins: [String: String]?) -> String {
        SettingsSchema.tables.map { table in
            var lines = ["[\(table.name)]"]
            for key in table.keys {
                let origin = origins.map { "  # " + ($0["\(table.name).\(key.name)"] ?? "default") } ?? ""
                if let literal = key.render(self) {
                    lines.append("\(key.name) = \(literal)" + origin)
                } else {
                    // TOML has no null: a key left out is shown as a comment.
                    lines.append("# \(key.name): not set (\(key.absentMeaning))" + origin)
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}

extension LoadedSettings {
    /// Every effective value and where it came from (`file:line`, or `default`), as TOML, after a
    /// comment naming the files read in order.
    public func describe() -> String {
        let read = files.isEmpty ? "# no file read: every value is its default" : "# read, in order: " + files.joined(separator: ", ")
        return read + "\n\n" + settings.describe(origins: origins)
    }
}
