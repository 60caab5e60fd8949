import Blitter
import Foundation
import Logging
import SystemPackage

/// The decoded pixels and captions of a library's items: the decode recipe end to end. The view
/// says which images it wants (`ImageRequest`, most urgent first); this turns each into a cache
/// key at the size its use needs (`ImageSize.decodeTarget`: a thumbnail covering a cell, the item
/// at its aspect-fit size on screen, bounded by pager.max_zoom), hands the list to the decode
/// queue (whose workers decode through `PhotoDecoder`, look thumbnails up on disk, build the mip
/// levels and read captions), and looks the results up without waiting. Completions arrive on a
/// worker thread and are passed on through `onDecoded` (the event loop's eventfd in `run`).
public final class LibraryImages {
    public private(set) var items: [LibraryItem]
    private let cache: ImageCache
    private let queue: DecodeQueue
    public let thumbnailCache: ThumbnailDiskCache?
    private let captions: CaptionShelf?
    private let screenSize: ImageSize
    private let cellSide: Int
    /// pager.max_zoom: a full-screen image is never larger than the screen at this zoom.
    private let maxZoom: Double

    public init(items: [LibraryItem], screenSize: ImageSize, cellSide: Int, maxZoom: Double = 4, cacheMegabytes: Int,
                decoding options: DecodeOptions, thumbnailCache: ThumbnailDiskCache? = nil,
                captionReader: CaptionReader? = nil, logger: Logger, onDecoded: @escaping @Sendable () -> Void) {
        self.items = items
        self.screenSize = screenSize
        self.cellSide = max(1, cellSide)
        self.maxZoom = max(1, maxZoom)
        cache = ImageCache(megabytes: cacheMegabytes)
        self.thumbnailCache = thumbnailCache
        // A photo's caption is read on the worker that decodes its screen image: never on the
        // frame loop, and by the time the photo shows, its caption is known.
        let captions = captionReader.map { CaptionShelf(reader: $0, logger: logger) }
        self.captions = captions
        let refusals = RefusedFiles()
        self.refusals = refusals
        queue = DecodeQueue(cache: cache, diskCache: thumbnailCache, workers: 2, decoding: options, captions: captions,
                            logger: logger, completion: { _, result in
                                if case let .failure(error) = result { refusals.note(error) }
                                onDecoded()
                            })
    }

    private let refusals: RefusedFiles

    /// The files refused by their decode since the last call (each once, in the order found),
    /// with the reason the queue logged: files the scan admitted but that cannot be shown
    /// (a chunk's CRC, a clip of which no frame decodes). The owner takes them out of the items,
    /// as the scan leaves out the files it refuses. A file changed or gone since the scan is no refusal.
    public func takeRefusals() -> [PhotoError] {
        refusals.take()
    }

    /// A worker may be in the middle of a decode (a second or more for a large photo on a slow
    /// board): the frame loop, which drops the images on SIGHUP and at exit, must not wait for it.
    /// The queue stops at once and its workers finish their last decode on their own.
    deinit {
        let queue = queue
        Thread.detachNewThread { queue.stop() }
    }

    /// The library changed (rescan, inotify): forget what belongs to items that are gone or changed.
    public func replaceItems(_ newItems: [LibraryItem]) {
        let kept = Set(newItems)
        for old in items where !kept.contains(old) {
            queue.forget(path: old.path)
            captions?.forget(old.path)
            refusals.forget(old.path)
        }
        items = newItems
    }

    /// The cache key of a request: the item's picture at the size its use shows it.
    public func key(_ request: ImageRequest) -> ImageKey? {
        switch request {
        case let .thumbnail(index):
            guard items.indices.contains(index) else { return nil }
            let photo = items[index].picture
            return ImageKey(photo: photo, size: photo.size.decodeTarget(.thumbnail(cellSide: cellSide)), kind: .thumbnail,
                            decodeSize: photo.size.thumbnailDecodeSize(cellSide: cellSide))
        case let .screen(index):
            guard items.indices.contains(index) else { return nil }
            let photo = items[index].picture
            return ImageKey(photo: photo, size: photo.size.decodeTarget(.screen(screenSize, maxZoom: maxZoom)), kind: .screen)
        }
    }

    /// What the view wants now, most urgent first (a request listed twice keeps its first place):
    /// it replaces everything pending, and the cache evicts in its reverse order.
    public func want(_ requests: [ImageRequest]) {
        queue.want(requests.compactMap(key))
    }

    public func thumbnail(_ index: Int) -> Bitmap? {
        key(.thumbnail(index)).flatMap(cache.image(for:))
    }

    public func screenImage(_ index: Int) -> MipChain? {
        key(.screen(index)).flatMap(cache.mipChain(for:))
    }

    /// The item's caption, once read (with its screen image); nil without captions.
    public func caption(_ index: Int) -> Caption? {
        guard let captions, items.indices.contains(index) else { return nil }
        return captions.caption(for: items[index].path)
    }

    /// Bytes of decoded pixels held in memory, mip levels included (bounded by `cache.megabytes`).
    public var decodedBytes: Int { cache.byteCount }

    /// Counts a playing clip's ring of frames (`ClipPlayer`) against `cache.megabytes`, ranked as
    /// item `index`'s screen image (the page on screen): its neighbours and the thumbnails are
    /// evicted first. Returns how many frames of `bytesPerFrame` the ring may hold (between `least`
    /// and `most`) and the cache's new limit when even `least` did not fit; `releaseClipFrames`
    /// with their bytes when the player has let go of them.
    public func holdClipFrames(for index: Int, bytesPerFrame: Int, most: Int, least: Int) -> (frames: Int, grownTo: Int?) {
        let rank = key(.screen(index)) ?? ImageKey(path: "", size: ImageSize(width: 0, height: 0))
        return cache.holdFrames(bytesPerFrame: bytesPerFrame, most: most, least: least, rankedAs: rank)
    }

    public func releaseClipFrames(_ byteCount: Int) {
        cache.releaseFrames(byteCount)
    }

    /// Bytes held by playing clips' rings of frames (counted against `cache.megabytes` too).
    public var clipFrameBytes: Int { cache.heldByteCount }

    /// True when everything asked for is decoded (or failed).
    public var isSettled: Bool { queue.isIdle }

    /// Blocks until the decoder has nothing left to do; only for `simulate` and tests, never on the
    /// frame loop.
    public func waitUntilSettled(timeout: Double = 60) {
        queue.waitUntilIdle(timeout: timeout)
    }
}

/// Decode-time refusals, noted on the workers and taken on the owner's loop.
private final class RefusedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [PhotoError] = []
    private var known: Set<String> = []

    /// A file changed or gone since the scan is no refusal: the folder's watch (or the next
    /// rescan) brings its new version or takes it out.
    func note(_ error: PhotoError) {
        switch error.reason {
        case .changed: return
        case let .unreadable(failure) where failure.errno == .noSuchFileOrDirectory: return
        default: break
        }
        lock.withLock {
            if known.insert(error.path).inserted { found.append(error) }
        }
    }

    func forget(_ path: String) {
        lock.withLock { _ = known.remove(path) }
    }

    func take() -> [PhotoError] {
        lock.withLock {
            defer { found = [] }
            return found
        }
    }
}
