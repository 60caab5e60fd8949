import Config
import Geometry
import Logging
import Photos
import Rendering

/// What the kiosk shows: the settings (read again on SIGHUP; a broken file keeps the old ones) and
/// the photo folder (scanned at start whatever the display, on SIGHUP and when the folder
/// changes), and the viewer made from them for a screen.
final class KioskContent {
    enum Reload {
        /// The file says what it said before: only the photos are read again.
        case sameSettings
        /// New settings: the screen needs a new viewer.
        case newSettings
        /// The file is broken (logged): the old settings stay.
        case broken
    }

    private(set) var settings: Settings
    /// The items of the last scan.
    private(set) var items: [LibraryItem] = []
    private let configPath: String
    private let logger: Logger
    private let status: ServiceStatus
    private let onDecoded: @Sendable () -> Void

    init(settings: Settings, configPath: String, logger: Logger, status: ServiceStatus,
         onDecoded: @escaping @Sendable () -> Void) {
        self.settings = settings
        self.configPath = configPath
        self.logger = logger
        self.status = status
        self.onDecoded = onDecoded
    }

    /// The photos in the folder now; every file left out has been logged with its reason.
    /// `excluding`: names still being written (the folder watch's), not complete yet.
    @discardableResult
    func scan(excluding: Set<String> = []) -> [LibraryItem] {
        let library = try? PhotoFolder.library(settings.photos, excluding: excluding, logger: logger)
        items = library?.items ?? []
        status.photosSkipped = Dictionary(grouping: library?.rejects ?? [], by: \.reason.label).mapValues(\.count)
        if items.isEmpty { logger.warning("no photos to show in \(settings.photos.directory) (photos.directory)") }
        status.photoCount = items.count
        status.refresh()
        return items
    }

    /// A viewer of the photos of the last scan.
    func makeViewer(screen: Size) -> Viewer {
        Viewer(settings: settings, screenSize: screen, items: items, logger: logger, onDecoded: onDecoded)
    }

    /// SIGHUP: the config file and its drop-ins read again, then the photos (`excluding` the names
    /// still being written), whatever the file said.
    func reload(excluding writing: Set<String> = []) -> Reload {
        let reloaded = readSettings()
        scan(excluding: writing)
        return reloaded
    }

    private func readSettings() -> Reload {
        let fresh: Settings
        let files: [String]
        do {
            let loaded = try SettingsFile.read(path: configPath, mustExist: false)
            (fresh, files) = (loaded.settings, loaded.files)
        } catch {
            logger.error("SIGHUP: keeping the old configuration: \(error)")
            return .broken
        }
        if fresh.display != settings.display || fresh.input != settings.input || fresh.remote != settings.remote {
            logger.notice("SIGHUP: [display], [input] and [remote] changes take effect at the next start")
        }
        StderrLogHandler.bootstrap(level: fresh.log.level)
        let changed = fresh != settings
        settings = fresh
        let read = files.isEmpty ? "no file (defaults)" : files.joined(separator: ", ")
        logger.info("SIGHUP: configuration reloaded from \(read)\(changed ? "" : " (unchanged)")")
        return changed ? .newSettings : .sameSettings
    }
}
