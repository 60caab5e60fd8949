import Config

extension Settings {
    /// The settings as a TOML document with every table and key, which `ConfigLoader.parse` reads
    /// back to equal settings. `vitrine check-config` prints it.
    public func describe() -> String {
        SettingsSchema.tables.map { table in
            var lines = ["[\(table.name)]"]
            for key in table.keys {
                if let literal = key.render(self) {
                    lines.append("\(key.name) = \(literal)")
                } else {
                    // TOML has no null: a key left out is shown as a comment.
                    lines.append("# \(key.name): not set (\(key.absentMeaning))")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}
