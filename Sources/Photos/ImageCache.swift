import Blitter
import Foundation

/// Decoded bitmaps by (path, size), bounded in bytes, least recently used evicted first.
/// Thread-safe: workers insert while the frame loop looks up.
public final class ImageCache: @unchecked Sendable {
    public let byteLimit: Int

    private struct Entry {
        var bitmap: Bitmap
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [ImageKey: Entry] = [:]
    private var bytes = 0
    /// Memory that is not in the cache but counts against its limit: decodes under way, mip levels.
    private var reserved = 0
    private var clock: UInt64 = 0

    public init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    /// `cache.megabytes` from the configuration.
    public convenience init(megabytes: Int) {
        self.init(byteLimit: megabytes * 1024 * 1024)
    }

    /// The bitmap for `key`, which counts as a use.
    public func image(for key: ImageKey) -> Bitmap? {
        lock.withLock {
            guard var entry = entries[key] else { return nil }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            return entry.bitmap
        }
    }

    public func contains(_ key: ImageKey) -> Bool {
        lock.withLock { entries[key] != nil }
    }

    /// Adds or replaces `key`, then evicts the least recently used entries until the total fits the
    /// limit. The new entry itself is kept even when it alone is larger than the limit, so that what
    /// was just asked for can be shown (otherwise it would be decoded again and again).
    public func insert(_ bitmap: Bitmap, for key: ImageKey) {
        lock.withLock {
            clock += 1
            if let old = entries[key] { bytes -= old.bitmap.byteCount }
            entries[key] = Entry(bitmap: bitmap, lastUse: clock)
            bytes += bitmap.byteCount
            evict(keeping: key)
        }
    }

    /// Counts `byteCount` bytes held elsewhere against the limit until `release`, evicting what it
    /// takes to stay under the limit: decode buffers, mip levels. So `cache.megabytes` bounds all
    /// decoded pixels of the process, not only those in the cache.
    public func reserve(_ byteCount: Int) {
        lock.withLock {
            reserved += max(0, byteCount)
            evict(keeping: nil)
        }
    }

    public func release(_ byteCount: Int) {
        lock.withLock { reserved = max(0, reserved - max(0, byteCount)) }
    }

    /// Call with the lock held: evicts the least recently used entries (never `keeping`) until the
    /// cache and the reservations fit the limit.
    private func evict(keeping key: ImageKey?) {
        while bytes + reserved > byteLimit, !entries.isEmpty {
            // A linear scan: the cache holds hundreds of entries, not millions.
            guard let oldest = entries.lazy.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
            entries[oldest.key] = nil
            bytes -= oldest.value.bitmap.byteCount
        }
    }

    /// Forgets every size of one photo (it was changed or removed on disk).
    public func removeAll(path: String) {
        lock.withLock {
            for (key, entry) in entries where key.path == path {
                entries[key] = nil
                bytes -= entry.bitmap.byteCount
            }
        }
    }

    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            bytes = 0
        }
    }

    public var byteCount: Int { lock.withLock { bytes } }
    public var reservedByteCount: Int { lock.withLock { reserved } }
    public var count: Int { lock.withLock { entries.count } }
    public var keys: Set<ImageKey> { lock.withLock { Set(entries.keys) } }
}
