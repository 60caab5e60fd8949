import Config
import Linux
import RunLoopRules

/// A table of the config file and its keys, in the order `Settings.describe()` writes them.
struct SettingTable {
    let name: String
    let keys: [SettingKey]
    /// The keys' names for "did you mean", prepared once.
    let candidates: [Suggestion.Candidate]

    init(name: String, keys: [SettingKey]) {
        self.name = name
        self.keys = keys
        candidates = keys.map { Suggestion.Candidate($0.name) }
    }

    func key(named name: String) -> SettingKey? {
        keys.first { $0.name == name }
    }
}

/// Every table and key of SPEC §5, with the values each accepts and the field of `Settings` it
/// writes (the field holds the default). The single source of truth for reading, for `describe()`
/// and for "did you mean" suggestions; `SettingsSchemaTests` hold it, the fields and
/// `Config/vitrine.toml` together.
enum SettingsSchema {
    /// Animations' durations.
    static let durationRange = 0.05...5.0
    /// Idle, blanking and waking times: a second to a day (0 is never).
    static let longDurationRange = 1.0...86400.0
    static let dampingRange = 0.1...2.0
    static let maxZoomRange = 1.0...16.0

    static let tables: [SettingTable] = [
        SettingTable(name: "display", keys: [
            .autoText("card", \.display.card, expected: "a device path such as \"/dev/dri/card0\"", example: "/dev/dri/card1",
                      isValid: isAbsolutePath),
            .autoText("connector", \.display.connector, expected: "a connector name such as \"HDMI-A-1\"", example: "HDMI-A-1",
                      isValid: { !$0.isEmpty }),
            .autoParsed("mode", \.display.mode, expected: "a mode \"WIDTHxHEIGHT\" or \"WIDTHxHEIGHT@HZ\"", example: "1920x1080@60",
                        parse: ModeRequest.init, format: \.description),
            .rotation("rotation", \.display.rotation),
        ]),
        SettingTable(name: "input", keys: [
            .autoText("device", \.input.device, expected: "a device path such as \"/dev/input/event3\"", example: "/dev/input/event3",
                      isValid: isAbsolutePath),
            .rotation("rotation", \.input.rotation),
            .boolean("swap_xy", \.input.swapXY),
            .boolean("invert_x", \.input.invertX),
            .boolean("invert_y", \.input.invertY),
            .calibration("calibration", \.input.calibration, absentMeaning: "identity"),
            .boolean("grab", \.input.grab),
            .number("tap_slop", \.scene.gestures.tapSlop, in: 0...100, unit: " px"),
            .duration("tap_timeout", \.scene.gestures.tapTimeout, in: 0.05...2),
        ]),
        SettingTable(name: "photos", keys: [
            .text("directory", \.photos.directory, expected: "a directory path", example: "/tmp/photos", isValid: { !$0.isEmpty }),
            .choice("sort", \.photos.sort),
            .number("max_megapixels", \.photos.maxMegapixels, in: 1...1000, unit: " MP"),
            .integer("max_file_megabytes", \.photos.maxFileMegabytes, in: 1...4096, unit: " MB"),
            .boolean("watch", \.photos.watch),
        ]),
        SettingTable(name: "grid", keys: [
            .integer("columns", \.scene.grid.columns, in: 1...12),
            .number("spacing", \.scene.grid.spacing, in: 0...200, unit: " px"),
            .color("placeholder_color", \.grid.placeholderColor),
            .color("background_color", \.grid.backgroundColor),
            .number("deceleration_rate", \.scene.grid.decelerationRate, in: 0.9...0.9999),
        ]),
        SettingTable(name: "pager", keys: [
            .number("page_spacing", \.scene.pager.pageSpacing, in: 0...200, unit: " px"),
            .number("flick_velocity", \.scene.pager.flickVelocity, in: 0...10000, unit: " px/s"),
            .number("max_zoom", \.scene.pager.maxZoom, in: maxZoomRange),
            // Bounded by max_zoom too, checked once both are read (`ConfigLoader`).
            .number("double_tap_zoom", \.scene.pager.doubleTapZoom, in: maxZoomRange),
        ]),
        SettingTable(name: "clips", keys: [
            .boolean("play", \.clips.play),
            .boolean("loop", \.clips.loop),
            .choice("live_photos", \.clips.livePhotos),
            .number("max_megapixels", \.clips.maxMegapixels, in: 0.1...100, unit: " MP"),
        ]),
        SettingTable(name: "captions", keys: [
            .boolean("show", \.captions.show),
            .boolean("date", \.captions.date),
            .text("date_format", \.captions.dateFormat, expected: "a strftime format such as \"%e %B %Y\" (at most 100 characters)", example: "%Y-%m-%d",
                  isValid: { !$0.isEmpty && $0.count <= 100 && !$0.unicodeScalars.contains { $0.value < 0x20 } },
                  problem: dateFormatProblem),
            .text("font", \.captions.font, expected: "a fontconfig pattern such as \"sans-serif\" or \"DejaVu Sans:bold\"", example: "DejaVu Sans:bold",
                  isValid: { !$0.isEmpty && $0.count <= 200 && !$0.unicodeScalars.contains { $0.value < 0x20 } }),
            .integer("size", \.captions.size, in: 0...500, unit: " px"),
            .integer("max_lines", \.captions.maxLines, in: 1...20),
        ]),
        SettingTable(name: "dismiss", keys: [
            .number("max_drag", \.scene.dismiss.maxDrag, in: 10...2000, unit: " px"),
            .number("min_scale", \.scene.dismiss.minScale, in: 0.1...1),
            .number("progress_threshold", \.scene.dismiss.progressThreshold, in: 0...1),
            .number("upward_velocity", \.scene.dismiss.upwardVelocity, in: 0...10000, unit: " px/s"),
            .number("start_distance", \.scene.dismiss.startDistance, in: 1...100, unit: " px"),
        ]),
        SettingTable(name: "animation", keys: [
            .duration("open_duration", \.scene.open.duration, in: durationRange),
            .number("open_damping", \.scene.open.dampingRatio, in: dampingRange),
            .duration("cancel_duration", \.scene.dismiss.cancel.duration, in: durationRange),
            .number("cancel_damping", \.scene.dismiss.cancel.dampingRatio, in: dampingRange),
            .duration("finish_duration", \.scene.dismiss.finish.duration, in: durationRange),
            .number("finish_damping", \.scene.dismiss.finish.dampingRatio, in: dampingRange),
            .duration("close_duration", \.scene.closeDuration, in: durationRange),
            .duration("page_settle_duration", \.scene.pager.settleDuration, in: durationRange),
            .duration("zoom_duration", \.scene.pager.zoom.duration, in: durationRange),
            .number("zoom_damping", \.scene.pager.zoom.dampingRatio, in: dampingRange),
            .duration("bounce_duration", \.scene.grid.bounce.duration, in: durationRange),
            .number("bounce_damping", \.scene.grid.bounce.dampingRatio, in: dampingRange),
        ]),
        SettingTable(name: "kiosk", keys: [
            .duration("idle_timeout", \.kiosk.idleTimeout, in: longDurationRange, zero: "never"),
            .choice("idle_action", \.kiosk.idleAction),
            .duration("slideshow_interval", \.kiosk.slideshowInterval, in: 1...3600),
            .choice("slideshow_transition", \.scene.slideshow.transition),
            .duration("transition_duration", \.scene.slideshow.transitionDuration, in: 0.1...10),
            .boolean("portrait_pairs", \.scene.slideshow.portraitPairs),
            .duration("blank_after", \.kiosk.blankAfter, in: longDurationRange, zero: "never"),
        ]),
        SettingTable(name: "schedule", keys: [
            .list("hours", \.kiosk.openingHours.weekly, expected: "days and hours such as \"mon-fri 09:00-18:00\"", example: "mon-fri 09:00-18:00",
                  parse: OpeningHours.WeeklyRule.parse, format: \.text),
            .list("closed", \.kiosk.openingHours.closed, expected: "a date such as \"2026-12-25\"", example: "2026-12-25", parse: { text in
                CivilDate(Substring(text)).map { .success($0) }
                    ?? .failure(OpeningHours.ParseFailure("not a date YYYY-MM-DD"))
            }, format: \.description),
            .list("special", \.kiosk.openingHours.special, expected: "a date and hours such as \"2026-12-24 10:00-14:00\"", example: "2026-12-24 10:00-14:00",
                  parse: OpeningHours.SpecialDay.parse, format: \.text),
            .duration("touch_wakes", \.kiosk.touchWakes, in: longDurationRange, zero: "off"),
        ]),
        SettingTable(name: "cache", keys: [
            .integer("megabytes", \.cache.megabytes, in: 16...4096, unit: " MB"),
            .autoText("directory", \.cache.directory, expected: "a directory path", example: "/var/cache/vitrine", isValid: { !$0.isEmpty }),
        ]),
        SettingTable(name: "log", keys: [
            .choice("level", \.log.level),
        ]),
        SettingTable(name: "remote", keys: [
            .optionalParsed("listen", \.remote.listen, off: "",
                            expected: "an address \"HOST:PORT\" such as \"127.0.0.1:9180\" or \"[::]:9180\"", example: "127.0.0.1:9180",
                            parse: ListenAddress.init, format: \.description),
            .text("token_file", \.remote.tokenFile, expected: "an absolute file path", example: "/run/vitrine.token", isValid: isAbsolutePath),
        ]),
        SettingTable(name: "mqtt", keys: [
            .optionalParsed("broker", \.mqtt.broker, off: "",
                            expected: "a URL \"mqtt://HOST[:PORT]\" or \"mqtts://HOST[:PORT]\" such as \"mqtt://192.168.1.10:1883\"",
                            example: "mqtts://broker.example:8883", parse: MQTTBroker.init, format: \.description),
            .text("topic", \.mqtt.topic, expected: "an MQTT topic such as \"vitrine/%hostname%\" (no + or #, no empty level, at most 200 bytes)",
                  example: "kiosks/lobby", isValid: { _ in true }, problem: mqttTopicProblem),
            .text("username", \.mqtt.username, expected: "a user name (at most 200 bytes, no control characters), or \"\" for none",
                  example: "vitrine", isValid: { $0.utf8.count <= 200 && !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }),
            .text("password_file", \.mqtt.passwordFile, expected: "an absolute file path, or \"\" for none", example: "/etc/vitrine/mqtt.password",
                  isValid: { $0.isEmpty || isAbsolutePath($0) }),
            .boolean("home_assistant", \.mqtt.homeAssistant),
        ]),
    ]

    /// Every key as `table.key`, matched on the key alone, for "did you mean" across tables.
    static let qualifiedKeys: [Suggestion.Candidate] = tables.flatMap { table in
        table.keys.map { Suggestion.Candidate("\(table.name).\($0.name)", matching: $0.name) }
    }

    static let tableCandidates = tables.map { Suggestion.Candidate($0.name) }

    /// Each key's name → the tables that have it, in order: an unknown key looked up in the other
    /// tables at once.
    static let tablesByKey: [String: [String]] = tables.reduce(into: [:]) { found, table in
        for key in table.keys { found[key.name, default: []].append(table.name) }
    }

    static func table(named name: String) -> SettingTable? {
        tables.first { $0.name == name }
    }

    /// The longest date `captions.date_format` may give for the sample date: a quarter of what
    /// the formatting at run time holds (`LocalTimeFormat.maximumLength`), so another date's
    /// longer month or day name still fits and no date is dropped.
    static let maximumDateLength = LocalTimeFormat.maximumLength / 4

    /// What is wrong with the date `format` gives for a sample date (a Wednesday in September, the
    /// longest names in English), in the locale of the process: nothing, or too long, or empty.
    static func dateFormatProblem(_ format: String) -> String? {
        let sample = "Wednesday 25 September 2024, 23:59:59"
        guard let date = LocalTimeFormat.formatted(format, year: 2024, month: 9, day: 25, hour: 23, minute: 59, second: 59),
              date.utf8.count <= maximumDateLength else {
            return "its date for \(sample) is longer than \(maximumDateLength) bytes"
        }
        guard !date.allSatisfy(\.isWhitespace) else { return "its date for \(sample) is empty" }
        return nil
    }

    /// DRM's character devices' major number (DRM_MAJOR; `DRMCard.major`).
    static let drmMajor: UInt32 = 226

    /// What is wrong with a `display.card` path that is there but is no DRM card (`/dev/null`):
    /// `run` would fail on it at every start (`ConfigLoader.read`'s `checkingDevices`). A path
    /// not there (yet) is no problem: the card's driver may load after the kiosk starts, and `run`
    /// waits for it.
    static func cardProblem(_ path: String) -> String? {
        guard let status = try? FileStatus(path: path),
              !(status.kind == .characterDevice && status.deviceMajor == drmMajor) else { return nil }
        return "is \(status.nodeDescription), not a DRM card (a character device of major \(drmMajor)); "
            + "expected a card node such as \"/dev/dri/card0\" (vitrine displays lists them)"
    }

    /// What is wrong with `mqtt.topic` as the prefix of the kiosk's topics, or nil: MQTT's rules
    /// for a topic one publishes to (no wildcards, no NUL), no empty level (a trailing "/" would
    /// give "vitrine//state"), not a broker's own `$` topic, and the one placeholder "%hostname%".
    static func mqttTopicProblem(_ topic: String) -> String? {
        if topic.isEmpty { return "it is empty" }
        if topic.utf8.count > 200 { return "it is \(topic.utf8.count) bytes long; at most 200" }
        if topic.contains("+") || topic.contains("#") { return "+ and # are wildcards, for subscribing only" }
        if topic.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "it has a control character" }
        if topic.hasPrefix("$") { return "topics beginning with $ are the broker's own" }
        if topic.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "it has an empty level (a leading, trailing or double \"/\")"
        }
        if topic.replacing("%hostname%", with: "").contains("%") { return "\"%hostname%\" is the only placeholder" }
        return nil
    }

    static func isAbsolutePath(_ path: String) -> Bool {
        path.hasPrefix("/")
    }
}
