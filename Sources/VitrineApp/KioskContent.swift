import Config
import ConfigFile
import Foundation
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
        /// Only the photo folder was read again (it changed; no SIGHUP).
        case photosOnly
    }

    private(set) var settings: Settings
    /// The items of the last scan.
    private(set) var items: [LibraryItem] = []
    private let configPath: String
    private let logger: Logger
    private let status: ServiceStatus
    private let onDecoded: @Sendable () -> Void
    /// Runs a reload's reading; `beginReload`.
    private let background: (@escaping @Sendable () -> Void) -> Void
    private let handoff: ReloadHandoff

    /// `background` runs a reload's reading (by default on a thread of its own) and `onReloaded`
    /// is called from there when it is done (`beginReload`).
    init(settings: Settings, configPath: String, logger: Logger, status: ServiceStatus,
         onDecoded: @escaping @Sendable () -> Void, onReloaded: @escaping @Sendable () -> Void = {},
         background: @escaping (@escaping @Sendable () -> Void) -> Void = KioskContent.onThreadOfItsOwn) {
        self.settings = settings
        self.configPath = configPath
        self.logger = logger
        self.status = status
        self.onDecoded = onDecoded
        self.background = background
        handoff = ReloadHandoff(wake: onReloaded)
    }

    /// A reading on a new thread, which ends with it.
    static func onThreadOfItsOwn(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.name = "vitrine-reload"
        thread.start()
    }

    /// The photos in the folder now; every file left out has been logged with its reason.
    /// `excluding`: names still being written (the folder watch's), not complete yet.
    @discardableResult
    func scan(excluding: Set<String> = []) -> [LibraryItem] {
        adopt(Self.library(settings.photos, cacheMegabytes: settings.cache.megabytes, excluding: excluding, logger: logger))
    }

    /// A viewer of the photos of the last scan.
    func makeViewer(screen: Size) -> Viewer {
        Viewer(settings: settings, screenSize: screen, items: items, logger: logger, onDecoded: onDecoded)
    }

    // MARK: - Reload

    /// What a reload read: the config file and its drop-ins (or why they are refused; nil when
    /// only the folder was read), and the photo folder as the settings that will be in use name it.
    struct Reading: Sendable {
        var settings: Result<LoadedSettings, AppError>?
        var library: PhotoLibrary?
    }

    /// SIGHUP on the caller's thread: the config file and its drop-ins read again, then the photos
    /// (`excluding` the names still being written), whatever the file said. For `run`,
    /// `beginReload` does the reading off the loop.
    func reload(excluding writing: Set<String> = []) -> Reload {
        apply(Self.read(configPath: configPath, photos: settings.photos, cacheMegabytes: settings.cache.megabytes,
                        excluding: writing, logger: logger))
    }

    /// SIGHUP in `run`: the reading (a config parse, a folder scan, both as slow as the files are
    /// big) is started on `background`, and `onReloaded` is called from there when it is done;
    /// the loop then calls `finishReload`. A SIGHUP while one is under way reads again once it is done (the
    /// file may have changed after it was read), however many came: a storm costs two readings.
    func beginReload(excluding writing: Set<String> = []) {
        beginReading(excluding: writing, settingsToo: true)
    }

    /// The photo folder changed: it is read again off the loop like a reload's (every photo's
    /// headers: a HEIC's go through libheif), and `finishReload` gives `.photosOnly`. A change
    /// while a reading is under way makes one more reading, as SIGHUPs do.
    func beginRescan(excluding writing: Set<String> = []) {
        beginReading(excluding: writing, settingsToo: false)
    }

    private func beginReading(excluding writing: Set<String>, settingsToo: Bool) {
        guard !handoff.start(excluding: writing, settingsToo: settingsToo) else { return }
        let (configPath, photos, cache, logger, handoff) = (configPath, settings.photos, settings.cache.megabytes, logger, handoff)
        background {
            handoff.finish(settingsToo
                ? Self.read(configPath: configPath, photos: photos, cacheMegabytes: cache, excluding: writing, logger: logger)
                : Reading(settings: nil, library: Self.library(photos, cacheMegabytes: cache, excluding: writing, logger: logger)))
        }
    }

    /// On the loop, after `onReloaded`: what the finished reading changed, applied; nil when none is
    /// finished. Starts the next reading when a SIGHUP came meanwhile.
    func finishReload() -> Reload? {
        guard let (reading, again) = handoff.take() else { return nil }
        let result = apply(reading)
        if let again { beginReading(excluding: again.writing, settingsToo: again.settingsToo) }
        return result
    }

    /// A reading is under way (its result not yet taken by `finishReload`).
    var isReloading: Bool { handoff.isRunning }

    /// After the loop has stopped: a reading still under way is dropped and wakes no one.
    func close() {
        handoff.close()
    }

    /// The reading, on any thread: touches nothing of the content's.
    static func read(configPath: String, photos: Settings.Photos, cacheMegabytes: Int, excluding writing: Set<String>,
                     logger: Logger) -> Reading {
        let settings: Result<LoadedSettings, AppError>
        do {
            settings = .success(try SettingsFile.read(path: configPath, mustExist: false))
        } catch let error as AppError {
            settings = .failure(error)
        } catch {
            settings = .failure(AppError("\(error)"))
        }
        let folder = (try? settings.get().settings.photos) ?? photos
        let cache = (try? settings.get().settings.cache.megabytes) ?? cacheMegabytes
        return Reading(settings: settings, library: library(folder, cacheMegabytes: cache, excluding: writing, logger: logger))
    }

    private static func library(_ photos: Settings.Photos, cacheMegabytes: Int, excluding: Set<String>,
                                logger: Logger) -> PhotoLibrary? {
        try? PhotoFolder.library(photos, cacheMegabytes: cacheMegabytes, excluding: excluding, logger: logger)
    }

    /// A reading made the content's, on the loop.
    private func apply(_ reading: Reading) -> Reload {
        let result = reading.settings.map(adopt) ?? .photosOnly
        adopt(reading.library)
        return result
    }

    @discardableResult
    private func adopt(_ library: PhotoLibrary?) -> [LibraryItem] {
        let scanned = library?.items ?? []
        // A file its decode refused stays out while it is the same file; changed, it is tried again.
        var refusals: [String: (version: FileVersion, error: PhotoError)] = [:]
        for item in scanned {
            if let refusal = decodeRefusals[item.path], refusal.version == item.picture.version { refusals[item.path] = refusal }
        }
        decodeRefusals = refusals
        items = scanned.filter { refusals[$0.path] == nil }
        scanRejects = library?.rejects ?? []
        if items.isEmpty { logger.warning("no photos to show in \(settings.photos.directory) (photos.directory)") }
        countPhotos()
        return items
    }

    /// The files the scan left out, and those left out since because their decode refused them.
    private var scanRejects: [PhotoError] = []
    private var decodeRefusals: [String: (version: FileVersion, error: PhotoError)] = [:]

    /// Files the scan admitted but their decode refused (the viewer has taken them out of its
    /// items, `KioskSession.imagesArrived`): out of the items, counted in `/metrics` with the
    /// scan's skips by reason, until they change on disk.
    func refuse(_ errors: [PhotoError]) {
        for error in errors {
            guard let item = items.first(where: { $0.path == error.path }) else { continue }
            decodeRefusals[error.path] = (item.picture.version, error)
        }
        items.removeAll { decodeRefusals[$0.path] != nil }
        countPhotos()
    }

    private func countPhotos() {
        let rejects = scanRejects + decodeRefusals.values.map(\.error)
        status.photosSkipped = Dictionary(grouping: rejects, by: \.reason.label).mapValues(\.count)
        status.photoCount = items.count
        status.refresh()
    }

    private func adopt(_ reading: Result<LoadedSettings, AppError>) -> Reload {
        let fresh: Settings
        let files: [String]
        switch reading {
        case .success(let loaded):
            (fresh, files) = (loaded.settings, loaded.files)
        case .failure(let error):
            // A bounded message: the first problems and how many more (`ConfigError`).
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

/// Where a reading runs (a thread of its own in `run`; a test's hand) and how it comes back.
final class ReloadHandoff: @unchecked Sendable {
    private let lock = NSLock()
    private let wake: @Sendable () -> Void
    private var running = false
    /// The names being written at the latest SIGHUP or folder change that came while a reading
    /// was under way, and whether any of them was a SIGHUP (the next reading reads the settings).
    private var again: (writing: Set<String>, settingsToo: Bool)?
    private var finished: KioskContent.Reading?
    private var closed = false

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// True when a reading is under way already (it will be followed by another).
    func start(excluding writing: Set<String>, settingsToo: Bool = true) -> Bool {
        lock.withLock {
            if running || closed {
                again = (writing, settingsToo || again?.settingsToo == true)
                return true
            }
            running = true
            return false
        }
    }

    func finish(_ reading: KioskContent.Reading) {
        let wakeUp = lock.withLock {
            finished = reading
            return !closed
        }
        if wakeUp { wake() }
    }

    func take() -> (KioskContent.Reading, again: (writing: Set<String>, settingsToo: Bool)?)? {
        lock.withLock {
            guard let reading = finished else { return nil }
            finished = nil
            running = false
            defer { again = nil }
            return (reading, again)
        }
    }

    var isRunning: Bool { lock.withLock { running } }

    func close() {
        lock.withLock { closed = true }
    }
}
