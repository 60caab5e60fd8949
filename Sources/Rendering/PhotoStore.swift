import Blitter
import Foundation
import Geometry
import Logging
import Photos
import Scene

/// The app's decoded pixels: which sizes it asks for (a thumbnail covering a grid cell, the photo at
/// its aspect-fit size on screen) and in what order (what is on screen first, then its neighbours),
/// over Photos' decode queue and cache, which own the memory budget. Lookups never wait; completions
/// arrive on a worker thread and are passed on through `onDecoded` (the event loop's eventfd in `run`).
public final class PhotoStore: PhotoImages {
    public private(set) var photos: [PhotoInfo]
    private let cache: ImageCache
    private let queue: DecodeQueue
    private let thumbnailCache: ThumbnailDiskCache?
    private let screenSize: ImageSize
    private let cellSide: Int
    /// pager.max_zoom: a full-screen image is never larger than the screen at this zoom.
    private let maxZoom: Double
    private let captions = CaptionShelf()

    public init(photos: [PhotoInfo], screenSize: Size, cellSide: Double, cacheMegabytes: Int,
                maxMegapixels: Double, maxFileMegabytes: Int = JPEGDecoder.defaultMaxFileMegabytes,
                maxZoom: Double = 4, thumbnailCache: ThumbnailDiskCache? = nil, captionReader: CaptionReader? = nil,
                logger: Logger, onDecoded: @escaping @Sendable () -> Void) {
        self.photos = photos
        self.screenSize = ImageSize(width: Int(screenSize.width), height: Int(screenSize.height))
        self.cellSide = max(1, Int(cellSide.rounded(.up)))
        self.maxZoom = max(1, maxZoom)
        cache = ImageCache(megabytes: cacheMegabytes)
        self.thumbnailCache = thumbnailCache
        // A photo's caption is read on the worker that decodes its screen image: never on the
        // frame loop, and by the time the photo shows, its caption is known.
        let shelf = captions
        queue = DecodeQueue(cache: cache, diskCache: thumbnailCache, workers: 2, logger: logger, makeDecoder: {
            let decoder = try JPEGDecoder(maxMegapixels: maxMegapixels, maxFileMegabytes: maxFileMegabytes)
            return { key in
                let image = try decoder.decode(path: key.path, to: key.size)
                if key.kind == .screen, let captionReader, !shelf.knows(key.path) {
                    let reading = captionReader.read(photoPath: key.path)
                    if let warning = reading.warning { logger.warning("\(warning)") }
                    shelf.store(reading.caption, for: key.path)
                }
                return (image.bitmap, image.warning)
            }
        }, completion: { _, _ in
            onDecoded()
        })
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
            queue.forget(path: old.path)
            captions.forget(old.path)
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
        return ImageKey(photo: photo, size: photo.size.decodeTarget(.thumbnail(cellSide: cellSide)), kind: .thumbnail)
    }

    func screenKey(_ index: Int) -> ImageKey? {
        guard photos.indices.contains(index) else { return nil }
        let photo = photos[index]
        return ImageKey(photo: photo, size: photo.size.decodeTarget(.screen(screenSize, maxZoom: maxZoom)), kind: .screen)
    }

    // MARK: - PhotoImages

    public func thumbnail(_ index: Int) -> Bitmap? {
        thumbnailKey(index).flatMap(cache.image(for:))
    }

    public func screenImage(_ index: Int) -> MipChain? {
        screenKey(index).flatMap(cache.mipChain(for:))
    }

    public func caption(_ index: Int) -> Caption? {
        guard photos.indices.contains(index) else { return nil }
        return captions.caption(for: photos[index].path)
    }

    // MARK: - What to decode

    /// Tells the decoder what `frame` shows and what comes next, most urgent first: the photo a
    /// transition carries, the page the pager shows, its other pages on screen, the current photo's
    /// thumbnail and its neighbours, the visible cells from the centre of the screen outward, then
    /// the cells a screen above and below. Anything else still queued is dropped, and what the cache
    /// must evict goes in the reverse order.
    public func want(for frame: SceneFrame, screenHeight: Double) {
        queue.want(wanted(for: frame, screenHeight: screenHeight))
    }

    /// The list `want` hands the decoder (a key may come twice; its first place counts).
    func wanted(for frame: SceneFrame, screenHeight: Double) -> [ImageKey] {
        var wanted: [ImageKey?] = []
        if let moving = frame.movingPhoto {
            wanted += [screenKey(moving.index), thumbnailKey(moving.index)]
        }
        // The page the pager shows, then the one sliding in beside it.
        let pages = frame.pages.map(\.index)
        wanted += pages.filter { $0 == frame.currentIndex }.map(screenKey)
        wanted += pages.filter { $0 != frame.currentIndex }.map(screenKey)
        if frame.mode != .grid, let current = frame.currentIndex {
            wanted += [thumbnailKey(current), screenKey(current - 1), screenKey(current + 1)]
        }
        // Visible cells from the centre of the screen outward, then a screen above and below.
        let centre = screenHeight / 2
        func order(_ cell: GridCell) -> (Int, Double) {
            (cell.rect.maxY > 0 && cell.rect.minY < screenHeight ? 0 : 1, abs(cell.rect.midY - centre))
        }
        wanted += frame.gridCells.sorted { order($0) < order($1) }.map { thumbnailKey($0.index) }
        return wanted.compactMap { $0 }
    }

    /// Bytes of decoded pixels held in memory, mip levels included (bounded by `cache.megabytes`).
    public var decodedBytes: Int { cache.byteCount }
    /// What the thumbnail cache on disk did, when there is one.
    public var thumbnailCacheStatistics: ThumbnailDiskCache.Statistics? { thumbnailCache?.statistics }

    /// True when everything asked for is decoded (or failed): `simulate` waits for this before a
    /// snapshot so its pictures do not depend on the machine's speed.
    public var isSettled: Bool { queue.isIdle }

    /// Blocks until the decoder has nothing left to do; only for `simulate`, never on the frame loop.
    public func waitUntilSettled(timeout: Double = 60) {
        queue.waitUntilIdle(timeout: timeout)
    }
}
