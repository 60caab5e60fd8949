import Blitter
import Foundation
import Geometry
import Logging
import Photos
import Scene

/// The app's decoded pixels: which sizes it asks for (a thumbnail covering a grid cell, the photo at
/// its aspect-fit size on screen) and in what order (what is on screen first, then its neighbours),
/// over Photos' decode queue and LRU cache. Lookups never wait; completions arrive on a worker
/// thread and are passed on through `onDecoded` (the event loop's eventfd in `run`).
public final class PhotoStore: PhotoImages {
    public private(set) var photos: [PhotoInfo]
    private let cache: ImageCache
    private let queue: DecodeQueue
    private let thumbnailCache: ThumbnailDiskCache?
    private let screenSize: ImageSize
    private let cellSide: Int
    private var mipChains: [(key: ImageKey, chain: MipChain)] = []

    public init(photos: [PhotoInfo], screenSize: Size, cellSide: Double, cacheMegabytes: Int,
                maxMegapixels: Double, thumbnailCache: ThumbnailDiskCache? = nil, logger: Logger,
                onDecoded: @escaping @Sendable () -> Void) {
        self.photos = photos
        self.screenSize = ImageSize(width: Int(screenSize.width), height: Int(screenSize.height))
        self.cellSide = max(1, Int(cellSide.rounded(.up)))
        cache = ImageCache(megabytes: cacheMegabytes)
        self.thumbnailCache = thumbnailCache
        queue = DecodeQueue(cache: cache, diskCache: thumbnailCache, workers: 2, maxMegapixels: maxMegapixels,
                            logger: logger) { _, _ in
            onDecoded()
        }
    }

    /// A worker may be in the middle of a decode (a second or more for a large photo on a slow
    /// board): the frame loop, which drops a store on SIGHUP and at exit, must not wait for it. The
    /// queue stops at once and its workers finish their last decode on their own.
    deinit {
        let queue = queue
        Thread.detachNewThread { queue.stop() }
    }

    /// The library changed (rescan, inotify): forget what belongs to photos that are gone or changed.
    public func replacePhotos(_ newPhotos: [PhotoInfo]) {
        let kept = Set(newPhotos)
        for old in photos where !kept.contains(old) {
            cache.removeAll(path: old.path)
            for gone in mipChains where gone.key.path == old.path { cache.release(gone.chain.byteCount) }
            mipChains.removeAll { $0.key.path == old.path }
            queue.forget(path: old.path)
        }
        photos = newPhotos
    }

    /// Photo sizes after EXIF orientation, for the scene's layout.
    public var orientedSizes: [Size] { Self.orientedSizes(of: photos) }

    public static func orientedSizes(of photos: [PhotoInfo]) -> [Size] {
        photos.map { Size(width: $0.size.width, height: $0.size.height) }
    }

    // MARK: - Sizes

    func thumbnailKey(_ index: Int) -> ImageKey? {
        guard photos.indices.contains(index) else { return nil }
        let photo = photos[index]
        return ImageKey(path: photo.path, size: photo.size.filling(ImageSize(width: cellSide, height: cellSide)),
                        kind: .thumbnail)
    }

    func screenKey(_ index: Int) -> ImageKey? {
        guard photos.indices.contains(index) else { return nil }
        let photo = photos[index]
        return ImageKey(path: photo.path, size: photo.size.fitting(in: screenSize))
    }

    // MARK: - PhotoImages

    public func thumbnail(_ index: Int) -> Bitmap? {
        thumbnailKey(index).flatMap(cache.image(for:))
    }

    public func screenImage(_ index: Int) -> MipChain? {
        guard let key = screenKey(index) else { return nil }
        if let chain = mipChains.first(where: { $0.key == key })?.chain { return chain }
        guard let image = cache.image(for: key) else { return nil }
        // Built once per photo on screen; only the last few are kept (the current page and its
        // neighbours), the cache holds the rest at their base level.
        let chain = MipChain(image)
        mipChains.append((key, chain))
        cache.reserve(chain.byteCount)  // its levels, and its base once the cache lets it go
        if mipChains.count > 4 { cache.release(mipChains.removeFirst().chain.byteCount) }
        return chain
    }

    // MARK: - What to decode

    /// Tells the decoder what `frame` shows and what comes next, most urgent first: the photo a
    /// transition carries or the pager shows, the visible cells, the pager's neighbours, then the
    /// cells a screen above and below. Anything else still queued is dropped.
    public func want(for frame: SceneFrame, screenHeight: Double) {
        // Ranks: 0 is the most urgent; the decode queue takes higher numbers first.
        var wanted: [ImageKey: Int] = [:]
        func add(_ key: ImageKey?, _ rank: Int) {
            guard let key else { return }
            wanted[key] = max(wanted[key] ?? Int.min, 10_000 - rank)
        }
        if let moving = frame.movingPhoto {
            add(screenKey(moving.index), 0)
            add(thumbnailKey(moving.index), 0)
        }
        for page in frame.pages {
            add(screenKey(page.index), page.index == frame.currentIndex ? 0 : 1)
        }
        if frame.mode != .grid, let current = frame.currentIndex {
            add(thumbnailKey(current), 1)
            add(screenKey(current - 1), 2)
            add(screenKey(current + 1), 2)
        }
        // Visible cells from the centre of the screen outward, then a screen above and below.
        let centre = screenHeight / 2
        let cells = frame.gridCells.sorted { abs($0.rect.midY - centre) < abs($1.rect.midY - centre) }
        for (rank, cell) in cells.enumerated() {
            let onScreen = cell.rect.maxY > 0 && cell.rect.minY < screenHeight
            add(thumbnailKey(cell.index), onScreen ? 3 + rank / 8 : 100 + rank)
        }
        queue.setWanted(wanted)
    }

    /// Bytes of decoded pixels held in memory (bounded by `cache.megabytes`).
    public var decodedBytes: Int { cache.byteCount }
    /// What the thumbnail cache on disk did, when there is one.
    public var thumbnailCacheStatistics: ThumbnailDiskCache.Statistics? { thumbnailCache?.statistics }

    /// True when everything asked for is decoded (or failed): `simulate` waits for this before a
    /// snapshot so its pictures do not depend on the machine's speed.
    public var isSettled: Bool { queue.isIdle }

    /// Blocks until the decoder has nothing left to do; only for `simulate`, never on the frame loop.
    public func waitUntilSettled(timeout: Double = 60) {
        let deadline = Date().addingTimeInterval(timeout)
        while !isSettled && Date() < deadline { usleep(2_000) }
    }
}
