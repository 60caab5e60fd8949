/// The value after `name` in `arguments` (`--requests 200` gives "200"), or nil: every mode's options.
func option(_ name: String, in arguments: [String] = CommandLine.arguments) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
