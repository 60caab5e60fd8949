import Blitter
import Foundation

/// Decoded images by (path, size): the one memory budget for decoded pixels (`cache.megabytes`).
/// Thread-safe: workers insert while the frame loop looks up.
///
/// An entry is what the renderer draws, as the decode worker made it: a `MipChain`, with its
/// half-size levels for a full-screen image, the image alone for a thumbnail. All of its bytes count
/// against the limit, levels included, and so do the working buffers of the decodes under way
/// (reservations, which only the `DecodeQueue` makes).
///
/// What goes first when room is needed follows the owner's latest want list (`DecodeQueue.want`):
/// entries no longer wanted, least recently used first, then the wanted ones from the least urgent
/// up. Nothing makes room by evicting what is more urgent than itself; a decode that would have to
/// is not started. The most urgent image always fits: when the limit cannot hold it even with
/// everything else gone, the limit grows to what it needs.
public final class ImageCache: @unchecked Sendable {
    private struct Entry {
        var chain: MipChain
        var lastUse: UInt64
    }

    /// Bytes counted against the limit while a decode runs, until its entry replaces them.
    struct Reservation {
        let key: ImageKey
        let byteCount: Int
    }

    enum ReservationResult {
        case granted(Reservation)
        /// Granted to the most urgent key by raising the limit to `limit`, the least it needs.
        case grown(Reservation, limit: Int)
        /// Only evicting more urgent entries, or waiting for other decodes, would make room.
        case refused
    }

    private let lock = NSLock()
    private var limit: Int
    private var entries: [ImageKey: Entry] = [:]
    private var bytes = 0
    private var reserved = 0
    /// Bytes held by playing clips' frame rings (`holdFrames`), until they stop.
    private var held = 0
    /// Each wanted key's place in the latest want list (0 is the most urgent).
    private var ranks: [ImageKey: Int] = [:]
    private var clock: UInt64 = 0

    /// `cache.megabytes`, as configured (the limit grows past it only for the photo on screen).
    public let budget: Int

    public init(byteLimit: Int) {
        limit = max(0, byteLimit)
        budget = limit
    }

    /// `cache.megabytes` from the configuration.
    public convenience init(megabytes: Int) {
        self.init(byteLimit: max(0, min(megabytes, Int.max >> 21)) << 20)
    }

    /// The limit: `cache.megabytes`, or more once the most urgent image needed more.
    public var byteLimit: Int { lock.withLock { limit } }

    /// The entry for `key`, which counts as a use.
    public func mipChain(for key: ImageKey) -> MipChain? {
        lock.withLock {
            guard var entry = entries[key] else { return nil }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            return entry.chain
        }
    }

    /// The full-size image of the entry for `key`, which counts as a use.
    public func image(for key: ImageKey) -> Bitmap? {
        mipChain(for: key)?.image
    }

    public func contains(_ key: ImageKey) -> Bool {
        lock.withLock { entries[key] != nil }
    }

    /// Adds or replaces `key`, then evicts what is less urgent until the total fits the limit. The
    /// new entry itself is kept even when that is not enough, so that what was just asked for can
    /// be shown (otherwise it would be decoded again and again).
    public func insert(_ chain: MipChain, for key: ImageKey) {
        lock.withLock { store(chain, for: key) }
    }

    /// Forgets every size of one photo (it was changed or removed on disk).
    public func removeAll(path: String) {
        lock.withLock {
            for (key, entry) in entries where key.path == path {
                entries[key] = nil
                bytes -= entry.chain.byteCount
            }
        }
    }

    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            bytes = 0
        }
    }

    /// Bytes of the entries, all levels included.
    public var byteCount: Int { lock.withLock { bytes } }
    /// Bytes of the decodes under way.
    public var reservedByteCount: Int { lock.withLock { reserved } }
    /// Bytes of the playing clips' frame rings.
    public var heldByteCount: Int { lock.withLock { held } }
    /// The entries, the decodes under way and the clips' rings together: what the limit bounds.
    var usedByteCount: Int { lock.withLock { bytes + reserved + held } }
    public var count: Int { lock.withLock { entries.count } }
    public var keys: Set<ImageKey> { lock.withLock { Set(entries.keys) } }

    // MARK: - The decode queue's side

    /// The owner's want list, most urgent first (no duplicates): decides what is evicted first.
    func prioritize(_ wanted: [ImageKey]) {
        let ranks = Dictionary(wanted.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
        lock.withLock { self.ranks = ranks }
    }

    /// Counts `byteCount` bytes for a decode of `key` against the limit, evicting less urgent
    /// entries to make room; refused, evicting nothing, when that is not enough. The most urgent
    /// key, when no other decode is under way, is never refused: the limit grows instead.
    func reserve(_ byteCount: Int, for key: ImageKey) -> ReservationResult {
        lock.withLock {
            let reservation = Reservation(key: key, byteCount: max(0, byteCount))
            let excess = bytes + reserved + held + reservation.byteCount - limit
            let victims = excess > 0 ? evictable(by: key) : []
            if excess > 0, victims.reduce(0, { $0 + $1.bytes }) < excess {
                guard rank(of: key) == 0, reserved == 0 else { return .refused }
                for victim in victims { remove(victim.key) }
                limit = bytes + held + reservation.byteCount
                reserved += reservation.byteCount
                return .grown(reservation, limit: limit)
            }
            reserved += reservation.byteCount
            evict(victims)
            return .granted(reservation)
        }
    }

    /// The decode is done: its entry takes the place of its reservation.
    func insert(_ chain: MipChain, replacing reservation: Reservation) {
        lock.withLock {
            reserved -= reservation.byteCount
            store(chain, for: reservation.key)
        }
    }

    /// The decode failed: its bytes are free again.
    func release(_ reservation: Reservation) {
        lock.withLock { reserved -= reservation.byteCount }
    }

    // MARK: - A playing clip's frames

    /// Counts a playing clip's ring of frames against the limit for as long as it plays (SPEC §12),
    /// ranked as `key` (the item's screen image: the page on screen) in the latest want list: the
    /// images less urgent than it (its neighbours, the thumbnails) are evicted first, as for a
    /// decode under way. The ring gets as many of its `frames` (at most `most`, at least `least`)
    /// as that makes room for; when not even `least` fit, the limit grows to hold them (the picture
    /// on screen always fits, as in `reserve`). Returns how many frames, and the new limit when
    /// it grew; `releaseFrames` gives the bytes back.
    public func holdFrames(bytesPerFrame: Int, most: Int, least: Int, rankedAs key: ImageKey) -> (frames: Int, grownTo: Int?) {
        lock.withLock {
            let perFrame = max(1, bytesPerFrame)
            let victims = evictable(by: key)
            let room = limit - (bytes + reserved + held) + victims.reduce(0) { $0 + $1.bytes }
            let frames = min(max(1, most), max(max(1, least), room / perFrame))
            held += perFrame * frames  // a screen-sized frame times a handful: no overflow
            evict(victims)
            guard bytes + reserved + held > limit else { return (frames, nil) }
            limit = bytes + reserved + held
            return (frames, limit)
        }
    }

    /// A ring held with `holdFrames` is gone.
    public func releaseFrames(_ byteCount: Int) {
        lock.withLock { held = max(0, held - byteCount) }
    }

    // MARK: - Eviction (with the lock held)

    private func rank(of key: ImageKey) -> Int { ranks[key] ?? Int.max }

    private func store(_ chain: MipChain, for key: ImageKey) {
        clock += 1
        if let old = entries[key] { bytes -= old.chain.byteCount }
        entries[key] = Entry(chain: chain, lastUse: clock)
        bytes += chain.byteCount
        if bytes + reserved + held > limit { evict(evictable(by: key)) }
    }

    /// The entries that may make room for `key`, first to go first: those not wanted, least
    /// recently used first, then the wanted ones less urgent than `key`, least urgent first.
    /// A linear scan: the cache holds hundreds of entries, not millions.
    private func evictable(by key: ImageKey) -> [(key: ImageKey, bytes: Int)] {
        let claim = rank(of: key)
        var victims: [(key: ImageKey, rank: Int, lastUse: UInt64, bytes: Int)] = []
        for (other, entry) in entries where other != key {
            let rank = rank(of: other)
            if rank > claim || rank == Int.max {
                victims.append((other, rank, entry.lastUse, entry.chain.byteCount))
            }
        }
        victims.sort { $0.rank != $1.rank ? $0.rank > $1.rank : $0.lastUse < $1.lastUse }
        return victims.map { (key: $0.key, bytes: $0.bytes) }
    }

    /// Evicts `victims` in order until the entries and the reservations fit the limit.
    private func evict(_ victims: [(key: ImageKey, bytes: Int)]) {
        for victim in victims where bytes + reserved + held > limit {
            remove(victim.key)
        }
    }

    private func remove(_ key: ImageKey) {
        if let entry = entries.removeValue(forKey: key) { bytes -= entry.chain.byteCount }
    }
}
