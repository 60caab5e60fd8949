import Blitter
import Clips
import Config
import Geometry
import Linux
import Logging
import Photos
import RunLoopRules
import Scene

/// Which item's motion plays, and the picture it shows (SPEC §12): the store's screen image of the
/// playing item is its frame (`PhotoStore.clips`), in place of its poster.
///
/// The current item plays while the scene is not in the grid (opening, pager, dismissing,
/// closing: the transitions carry the playing picture): a clip with `clips.play`, looping with
/// `clips.loop`; a Live Photo's motion once, with `live_photos = "hold"` when the page is held,
/// with `"open"` when it becomes the page shown, then its still returns. Another page, or the
/// grid, stops it; coming back starts it from its first frame. A clip over
/// `clips.max_megapixels` shows its poster, with one warning naming the file; a clip whose
/// source fails shows its poster from then on, with one warning.
///
/// Each new frame gets a content version of its own on the pages and the moving photo that show
/// the item (not on its grid cell, which keeps its poster), so the renderer's caches and
/// `showsSamePicture` stay exact.
public final class ClipPlayback {
    public let settings: Settings.Clips
    private let store: PhotoStore
    private let screenSize: ImageSize
    private let logger: Logger
    private let makeSource: ClipPlayer.SourceFactory
    private let onFrame: @Sendable () -> Void
    /// Ring slots: see `ClipPlayer`; at least two (one shown, one ahead) when memory is short.
    public static let slots = 4
    public static let minimumSlots = 2

    /// `simulate`: each sample waits for the frame due (deterministic in virtual time). Never in `run`.
    public var waitsForFrames = false
    /// How far after a sample time a frame still counts as due (`ClipTimeline.vblankTolerance` in `run`).
    public var tolerance = ClipTimeline.exact

    private struct Playing {
        let index: Int
        let path: String
        let player: ClipPlayer
        /// A Live Photo's motion: once, then the still.
        let once: Bool
        var shown: ClipPlayer.Frame?
        var clipTime: Double?
    }

    private var playing: Playing?
    /// The item the scene shows outside the grid, as of the last sample, and whether its motion
    /// already played during this visit (a Live Photo plays once per hold or visit).
    private var visit: (index: Int, path: String)?
    private var lastHold: PageHold?
    private var version = 0
    private var failed: Set<String> = []
    private var warned: Set<String> = []
    private var described: Set<String> = []
    private var warnedGrowth = false

    /// Frames shown and frames passed over unseen, since start (`/metrics`).
    public private(set) var framesShown = 0
    public private(set) var framesDropped = 0

    public init(settings: Settings.Clips, store: PhotoStore, screenSize: Size, logger: Logger,
                makeSource: @escaping ClipPlayer.SourceFactory, onFrame: @escaping @Sendable () -> Void) {
        self.settings = settings
        self.store = store
        self.screenSize = ImageSize(width: max(1, Int(screenSize.width)), height: max(1, Int(screenSize.height)))
        self.logger = logger
        self.makeSource = makeSource
        self.onFrame = onFrame
    }

    deinit {
        playing?.player.stop()
    }

    /// The playing clip's place in the trace: its clip time and the frame shown; nil when nothing
    /// plays or its first frame is not decoded yet.
    public var current: (index: Int, time: Double, frame: Int)? {
        guard let playing, let frame = playing.shown, let time = playing.clipTime else { return nil }
        return (playing.index, time, frame.index)
    }

    /// The item whose motion plays now, if any.
    public var playingIndex: Int? { playing?.index }
    /// The decoder of the clip playing ("h264 (software)"), once it has started.
    public var decoderName: String? { playing?.player.decoderName }

    /// When the picture next changes by itself (the next frame due, scene time); nil when nothing
    /// plays or the next frame is not decoded yet (its arrival wakes the loop).
    public var nextChange: Double? { playing?.player.nextChange }

    /// The size a clip's frames are decoded at: its aspect-fit size on the screen, never larger
    /// than the clip.
    public func frameSize(of clip: ClipInfo) -> ImageSize {
        let own = ImageSize(width: max(1, clip.displayWidth), height: max(1, clip.displayHeight))
        let fit = own.fitting(in: screenSize)
        return fit.width > own.width || fit.height > own.height ? own : fit
    }

    /// The library changed: indices name other items now.
    public func stop() {
        playing?.player.stop()
        playing = nil
        visit = nil
    }

    /// After the scene was sampled at `t`: starts, stops or advances the clip `frame` shows and
    /// stamps its frame's content version on the placements that show it.
    /// `shrinking`: a transition carries the item to or from a grid cell (opening, closing, a
    /// released dismiss): its frames need their half-size levels.
    public func update(_ frame: inout SceneFrame, hold: PageHold?, shrinking: Bool, at t: Double) {
        let items = store.items
        let current = frame.mode != .grid ? frame.currentIndex.flatMap { items.indices.contains($0) ? $0 : nil } : nil
        let newHold = hold != nil && hold != lastHold ? hold : nil
        lastHold = hold
        guard let current else {
            finish()
            visit = nil
            return
        }
        let item = items[current]
        let newVisit = visit.map { $0.index != current || $0.path != item.path } ?? true
        if newVisit {
            finish()
            visit = (current, item.path)
        }
        if playing == nil, let motion = item.motion {
            switch item.kind {
            case .still:
                break
            case .clip:
                if newVisit, settings.play { start(current, motion: motion, once: false, levels: shrinking) }
            case .livePhoto:
                let trigger = switch settings.livePhotos {
                case .hold: newHold?.index == current
                case .open: newVisit
                case .off: false
                }
                if trigger { start(current, motion: motion, once: true, levels: shrinking) }
            }
        }
        advance(&frame, levels: shrinking, at: t)
    }

    private func finish() {
        playing?.player.stop()
        playing = nil
    }

    private func start(_ index: Int, motion: (path: String, clip: ClipInfo), once: Bool, levels: Bool) {
        guard !failed.contains(motion.path) else { return }
        guard motion.clip.megapixels <= settings.maxMegapixels else {
            if warned.insert(motion.path).inserted {
                logger.warning("""
                    Clip \(LogLine.escaped(motion.path)) is \(motion.clip.storedWidth)x\(motion.clip.storedHeight) \
                    (\(String(format: "%.1f", motion.clip.megapixels)) MP), over clips.max_megapixels \
                    \(settings.maxMegapixels): showing its poster frame only
                    """)
            }
            return
        }
        let size = frameSize(of: motion.clip)
        let perFrame = ClipPlayer.bytesPerFrame(size)
        let images = store.images
        let (slots, grownTo) = images.holdClipFrames(for: index, bytesPerFrame: perFrame, most: Self.slots, least: Self.minimumSlots)
        if let grownTo, !warnedGrowth {
            warnedGrowth = true
            logger.warning("""
                cache.megabytes cannot hold the playing clip's \(slots) frames at \(size) \
                (\(megabytes(slots * perFrame))): the cache grows to \(megabytes(grownTo))
                """)
        }
        let held = slots * perFrame
        let player = ClipPlayer(path: motion.path, clip: motion.clip, frameSize: size, slots: slots,
                                loops: !once && settings.loop, tolerance: tolerance, withLevels: levels,
                                makeSource: makeSource, onFrame: onFrame,
                                onExit: { images.releaseClipFrames(held) })
        playing = Playing(index: index, path: motion.path, player: player, once: once)
    }

    private func megabytes(_ bytes: Int) -> String {
        "\(ByteCount(bytes))"
    }

    /// The frame due at `t`, and its version on the placements that show the item.
    private func advance(_ frame: inout SceneFrame, levels: Bool, at t: Double) {
        guard var playing else { return }
        playing.player.setLevelsWanted(levels)
        let sample = playing.player.sample(at: t, wait: waitsForFrames)
        if let failure = sample.failure {
            failed.insert(playing.path)
            logger.warning("Clip \(LogLine.escaped(playing.path)) stopped playing: \(failure); showing its poster frame")
            finish()
            return
        }
        if sample.finished, playing.once {
            finish()
            return
        }
        framesDropped += sample.dropped
        if sample.frame != nil, sample.changed || sample.relevelled {
            if sample.changed { framesShown += 1 }
            version += 1
        }
        if sample.frame != nil, described.insert(playing.path).inserted {
            let decoder = playing.player.decoderName.map { " through \($0)" } ?? ""
            logger.info("Clip \(LogLine.escaped(playing.path)) plays at \(playing.player.frameSize)\(decoder)")
        }
        playing.shown = sample.frame
        playing.clipTime = sample.clipTime
        self.playing = playing
        guard sample.frame != nil else { return }
        for i in frame.pages.indices where frame.pages[i].index == playing.index {
            frame.pages[i].contentVersion = version
        }
        if frame.movingPhoto?.index == playing.index {
            frame.movingPhoto?.contentVersion = version
        }
    }

    /// The frame item `index` shows now, when it plays and its first frame is decoded.
    public func shownImage(_ index: Int) -> MipChain? {
        guard let playing, playing.index == index else { return nil }
        return playing.shown?.image
    }
}
