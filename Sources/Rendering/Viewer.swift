import Blitter
import Config
import Geometry
import Logging
import Photos
import Scene
import Synchronization
import Touch

/// The app without its devices: the scene, the photos it shows and the renderer. `run` drives it
/// from evdev and the DRM card, `simulate` and `demo` from scripts and virtual time.
public final class Viewer {
    public let settings: Settings
    public let screenSize: Size
    public let scene: Scene
    public let store: PhotoStore
    /// The playing clip (SPEC §12): the store's screen image of its item is the frame it shows.
    public let clips: ClipPlayback
    private let renderer: Renderer
    private let photosDecoded: DecodedFlag

    /// `onDecoded` is called on a worker thread when a photo is decoded or a clip's frame is
    /// (it should only wake the loop; `takePhotosDecoded` tells which). `clipSources`: how a
    /// clip is opened for playing (tests give plain frames).
    public init(settings: Settings, screenSize: Size, items: [LibraryItem], logger: Logger,
                clipSources: @escaping ClipPlayer.SourceFactory = ClipPlayer.readers,
                onDecoded: @escaping @Sendable () -> Void) {
        self.settings = settings
        self.screenSize = screenSize
        let photosDecoded = DecodedFlag()
        self.photosDecoded = photosDecoded
        scene = Scene(parameters: settings.scene, screenSize: screenSize,
                      photoSizes: PhotoStore.orientedSizes(of: items))
        store = PhotoStore(items: items, screenSize: screenSize, cellSide: scene.grid.cellSize,
                           cacheMegabytes: settings.cache.megabytes, maxMegapixels: settings.photos.maxMegapixels,
                           maxFileMegabytes: settings.photos.maxFileMegabytes, maxZoom: settings.scene.pager.maxZoom,
                           thumbnailCache: ThumbnailDiskCache.configured(directory: settings.cache.directory, logger: logger),
                           captionReader: settings.captions.show
                               ? CaptionReader(includeDate: settings.captions.date, dateFormat: settings.captions.dateFormat,
                                               maxFileMegabytes: settings.photos.maxFileMegabytes)
                               : nil,
                           logger: logger, onDecoded: { [photosDecoded] in
                               photosDecoded.value.store(true, ordering: .releasing)
                               onDecoded()
                           })
        clips = ClipPlayback(settings: settings.clips, store: store, screenSize: screenSize, logger: logger,
                             makeSource: clipSources, onFrame: onDecoded)
        store.clips = clips
        renderer = Renderer(grid: settings.grid, captions: Self.captionPainter(settings.captions, screenSize: screenSize, logger: logger),
                            badges: CellBadgePainter(font: settings.captions.font) { logger.warning("\($0)") })
    }

    /// The caption painter, when captions are shown and a font can be found; a missing font is said
    /// once, and the photos show without captions.
    private static func captionPainter(_ captions: Settings.Captions, screenSize: Size, logger: Logger) -> CaptionPainter? {
        guard captions.show else { return nil }
        do {
            let painter = try CaptionPainter(settings: captions, screenSize: screenSize)
            painter.onFailure = { logger.warning("\($0)") }
            if let missing = painter.missingFamily {
                logger.warning("captions.font: no font of the family \"\(missing)\" is installed (fc-list shows those that are); captions use \(painter.primaryFamily)")
            }
            logger.info("Captions in \(painter.primaryFamily) at \(painter.pixelSize) px (captions.font \"\(captions.font)\")")
            return painter
        } catch {
            logger.error("Captions are off: no font for captions.font \"\(captions.font)\": \(error)")
            return nil
        }
    }

    /// The caption the frame shows with the current photo (SPEC §6's trace), nil when none.
    public func shownCaption(in frame: SceneFrame) -> Caption? {
        guard renderer.captions != nil, let placement = CaptionPlacement.current(in: frame, screen: screenSize) else { return nil }
        return store.caption(placement.index)
    }

    /// The folder changed: the same items keep their place on screen where they still exist; an
    /// open item that was deleted closes back to the grid.
    public func replaceItems(_ items: [LibraryItem], at time: Double) {
        let newIndex = Dictionary(items.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { a, _ in a })
        var change = Scene.OpenPhotoChange.unchanged
        if let current = scene.currentIndex, store.items.indices.contains(current) {
            change = newIndex[store.items[current].path].map { .movedTo($0) } ?? .removed
        }
        clips.stop()
        store.replaceItems(items)
        scene.setPhotoSizes(store.orientedSizes, openPhoto: change)
    }

    /// Takes out of the items the files whose decode refused them since the last call, as the
    /// scan leaves out the files it refuses (the grid closes up; an open one closes back to the
    /// grid, as a deleted one does), and returns them; none: nothing changed.
    public func dropRefused(at time: Double) -> [PhotoError] {
        let refused = store.takeRefusals()
        guard !refused.isEmpty else { return [] }
        let shown = Set(store.items.map(\.path))
        let dropped = refused.filter { shown.contains($0.path) }
        guard !dropped.isEmpty else { return [] }
        let paths = Set(dropped.map(\.path))
        replaceItems(store.items.filter { !paths.contains($0.path) }, at: time)
        return dropped
    }

    public func handle(_ event: SceneInput) {
        switch event {
        case .touch(let frame): scene.handle(frame)
        case .back(let time): scene.handleBack(at: time)
        }
    }

    /// Samples the scene at `time` (the time the frame will be shown) and tells the decoder what
    /// that frame needs.
    public func frame(at time: Double) -> SceneFrame {
        var frame = scene.frame(at: time)
        // A transition that flies the clip to or from its cell shrinks it: its frames need levels.
        let shrinking = frame.mode == .opening || frame.mode == .closing || (frame.mode == .dismissing && scene.isAnimating)
        clips.update(&frame, hold: scene.pageHold, shrinking: shrinking, at: frame.time)
        store.want(for: frame, screenHeight: screenSize.height)
        return frame
    }

    /// Whether a photo was decoded since the last call (a clip's frame alone changes nothing until
    /// it is due: `clips.nextChange` says when).
    public func takePhotosDecoded() -> Bool {
        photosDecoded.value.exchange(false, ordering: .acquiring)
    }

    /// Draws `frame` into `target`; returns the rows that changed since the last frame drawn there.
    @discardableResult
    public func draw(_ frame: SceneFrame, into target: inout Bitmap) -> RowSet {
        renderer.render(frame, images: store, into: &target)
    }
}

/// A decode finished, set on a worker and taken by the loop.
private final class DecodedFlag: Sendable {
    let value = Atomic<Bool>(false)
}
