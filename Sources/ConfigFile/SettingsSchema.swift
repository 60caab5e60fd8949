import Config
import RunLoopRules

/// A table of the config file and its keys, in the order `Settings.describe()` writes them.
struct SettingTable {
    let name: String
    let keys: [SettingKey]

    func key(named name: String) -> SettingKey? {
        keys.first { $0.name == name }
    }
}

/// Every table and key of SPEC §5, with the values each accepts and the field of `Settings` it
/// writes (the field holds the default). The single source of truth for reading, for `describe()`
/// and for "did you mean" suggestions; `SettingsSchemaTests` hold it, the fields and
/// `Config/vitrine.toml` together.
enum SettingsSchema {
    static let durationRange = 0.05...5.0
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
            .matrix("calibration", \.input.calibration, count: 6, absentMeaning: "identity"),
            .boolean("grab", \.input.grab),
            .number("tap_slop", \.scene.gestures.tapSlop, in: 0...100, unit: " px"),
            .number("tap_timeout", \.scene.gestures.tapTimeout, in: 0.05...2, unit: " s"),
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
        SettingTable(name: "captions", keys: [
            .boolean("show", \.captions.show),
            .boolean("date", \.captions.date),
            .text("date_format", \.captions.dateFormat, expected: "a strftime format such as \"%e %B %Y\" (at most 100 characters)", example: "%Y-%m-%d",
                  isValid: { !$0.isEmpty && $0.count <= 100 && !$0.unicodeScalars.contains { $0.value < 0x20 } }),
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
            .number("open_duration", \.scene.open.duration, in: durationRange, unit: " s"),
            .number("open_damping", \.scene.open.dampingRatio, in: dampingRange),
            .number("cancel_duration", \.scene.dismiss.cancel.duration, in: durationRange, unit: " s"),
            .number("cancel_damping", \.scene.dismiss.cancel.dampingRatio, in: dampingRange),
            .number("finish_duration", \.scene.dismiss.finish.duration, in: durationRange, unit: " s"),
            .number("finish_damping", \.scene.dismiss.finish.dampingRatio, in: dampingRange),
            .number("close_duration", \.scene.closeDuration, in: durationRange, unit: " s"),
            .number("page_settle_duration", \.scene.pager.settleDuration, in: durationRange, unit: " s"),
            .number("zoom_duration", \.scene.pager.zoom.duration, in: durationRange, unit: " s"),
            .number("zoom_damping", \.scene.pager.zoom.dampingRatio, in: dampingRange),
            .number("bounce_duration", \.scene.grid.bounce.duration, in: durationRange, unit: " s"),
            .number("bounce_damping", \.scene.grid.bounce.dampingRatio, in: dampingRange),
        ]),
        SettingTable(name: "kiosk", keys: [
            .number("idle_timeout", \.kiosk.idleTimeout, in: 0...86400, unit: " s"),
            .choice("idle_action", \.kiosk.idleAction),
            .number("slideshow_interval", \.kiosk.slideshowInterval, in: 1...3600, unit: " s"),
            .number("blank_after", \.kiosk.blankAfter, in: 0...86400, unit: " s"),
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
            .number("touch_wakes", \.kiosk.touchWakes, in: 0...86400, unit: " s"),
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
    ]

    static func table(named name: String) -> SettingTable? {
        tables.first { $0.name == name }
    }

    static func isAbsolutePath(_ path: String) -> Bool {
        path.hasPrefix("/")
    }
}
