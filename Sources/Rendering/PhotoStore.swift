import Blitter
import Geometry
import Logging
import Photos
import Scene

/// Which images a frame needs, in what order: the Rendering side of Photos' `LibraryImages`, which
/// owns the decode recipe (sizes, decoders, mip levels, the thumbnail cache on disk, captions) and
/// the memory budget. Lookups never wait.
public final class PhotoStore: PhotoImages {
    public let images: LibraryImages
    /// The playing clip: its item's screen image is the frame it shows (SPEC §12).
    public weak var clips: ClipPlayback?

    public init(items: [LibraryItem], screenSize: Size, cellSide: Double, cacheMegabytes: Int,
                maxMegapixels: Double, maxFileMegabytes: Int = DecodeOptions.defaultMaxFileMegabytes,
                maxZoom: Double = 4, thumbnailCache: ThumbnailDiskCache? = nil, captionReader: CaptionReader? = nil,
                files: PhotoFileOpener = .linux, logger: Logger, onDecoded: @escaping @Sendable () -> Void) {
        images = LibraryImages(items: items, screenSize: ImageSize(width: Int(screenSize.width), height: Int(screenSize.height)),
                               cellSide: Int(cellSide.rounded(.up)), maxZoom: maxZoom, cacheMegabytes: cacheMegabytes,
                               decoding: DecodeOptions(maxMegapixels: maxMegapixels, maxFileMegabytes: maxFileMegabytes, files: files,
                                                       cacheMegabytes: cacheMegabytes),
                               thumbnailCache: thumbnailCache, captionReader: captionReader, logger: logger, onDecoded: onDecoded)
        badges = Self.badges(of: items)
    }

    /// Each item's grid badge, made once per library rather than per cell and frame.
    private var badges: [String?]

    static func badges(of items: [LibraryItem]) -> [String?] {
        items.map { item in
            if case let .clip(clip) = item.kind { clip.durationLabel } else { nil }
        }
    }

    public var items: [LibraryItem] { images.items }

    /// The library changed (rescan, inotify): forget what belongs to items that are gone or changed.
    public func replaceItems(_ items: [LibraryItem]) {
        images.replaceItems(items)
        badges = Self.badges(of: items)
    }

    /// The files refused by their decode since the last call (`LibraryImages.takeRefusals`).
    public func takeRefusals() -> [PhotoError] { images.takeRefusals() }

    /// Item sizes after the orientation, for the scene's layout.
    public var orientedSizes: [Size] { Self.orientedSizes(of: items) }

    public static func orientedSizes(of items: [LibraryItem]) -> [Size] {
        items.map { Size(width: $0.size.width, height: $0.size.height) }
    }

    // MARK: - PhotoImages

    public func thumbnail(_ index: Int) -> Bitmap? { images.thumbnail(index) }
    public func screenImage(_ index: Int) -> MipChain? { clips?.shownImage(index) ?? images.screenImage(index) }
    public func caption(_ index: Int) -> Caption? { images.caption(index) }
    public func badge(_ index: Int) -> String? { badges.indices.contains(index) ? badges[index] : nil }

    // MARK: - What to decode

    /// Tells the decoder what `frame` shows and what comes next, most urgent first: the photo a
    /// transition carries, the page the pager shows, its other pages on screen, the current photo's
    /// thumbnail and its neighbours, the visible cells from the centre of the screen outward, then
    /// the cells a screen above and below. Anything else still queued is dropped, and what the cache
    /// must evict goes in the reverse order.
    public func want(for frame: SceneFrame, screenHeight: Double) {
        images.want(wanted(for: frame, screenHeight: screenHeight))
    }

    /// The list `want` hands the decoder (a request may come twice; its first place counts).
    func wanted(for frame: SceneFrame, screenHeight: Double) -> [ImageRequest] {
        var wanted: [ImageRequest] = []
        if let moving = frame.movingPhoto {
            wanted += [.screen(moving.index), .thumbnail(moving.index)]
        }
        // The page the pager shows, then the one sliding in beside it.
        let pages = frame.pages.map(\.index)
        wanted += pages.filter { $0 == frame.currentIndex }.map(ImageRequest.screen)
        wanted += pages.filter { $0 != frame.currentIndex }.map(ImageRequest.screen)
        if frame.mode != .grid, let current = frame.currentIndex {
            wanted += [.thumbnail(current), .screen(current - 1), .screen(current + 1)]
        }
        // Visible cells from the centre of the screen outward, then a screen above and below.
        let centre = screenHeight / 2
        func order(_ cell: GridCell) -> (Int, Double) {
            (cell.rect.maxY > 0 && cell.rect.minY < screenHeight ? 0 : 1, abs(cell.rect.midY - centre))
        }
        wanted += frame.gridCells.sorted { order($0) < order($1) }.map { .thumbnail($0.index) }
        return wanted.filter { request in
            switch request {
            case let .thumbnail(index), let .screen(index): return items.indices.contains(index)
            }
        }
    }

    /// Bytes of decoded pixels held in memory, mip levels included (bounded by `cache.megabytes`).
    public var decodedBytes: Int { images.decodedBytes }
    /// What the thumbnail cache on disk did, when there is one.
    public var thumbnailCacheStatistics: ThumbnailDiskCache.Statistics? { images.thumbnailCache?.statistics }

    /// True when everything asked for is decoded (or failed): `simulate` waits for this before a
    /// snapshot so its pictures do not depend on the machine's speed.
    public var isSettled: Bool { images.isSettled }

    /// Blocks until the decoder has nothing left to do; only for `simulate`, never on the frame loop.
    public func waitUntilSettled(timeout: Double = 60) {
        images.waitUntilSettled(timeout: timeout)
    }
}
