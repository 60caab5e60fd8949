import Blitter
@testable import Photos
import Testing

/// The working buffers of decodes under way count against the cache's limit, and the want list
/// decides what may be evicted for them (the decode queue's side of the cache).
@Suite struct ImageCacheReservationTests {
    private func key(_ name: String) -> ImageKey { ImageKey(path: name, size: ImageSize(width: 10, height: 10)) }
    private let entry = MipChain.single(Bitmap(width: 10, height: 10))  // 400 bytes

    private func granted(_ result: ImageCache.ReservationResult) -> ImageCache.Reservation? {
        if case let .granted(reservation) = result { return reservation }
        return nil
    }

    @Test func aReservationEvictsWhatIsNotWantedLeastRecentlyUsedFirst() throws {
        let cache = ImageCache(byteLimit: 1200)
        for name in ["a", "b", "c"] { cache.insert(entry, for: key(name)) }
        _ = cache.image(for: key("a"))  // b is now the oldest
        let reservation = try #require(granted(cache.reserve(300, for: key("d"))))
        #expect(cache.keys == [key("a"), key("c")])
        #expect(cache.reservedByteCount == 300)

        // The entry takes the reservation's place.
        cache.insert(entry, replacing: reservation)
        #expect(cache.keys == [key("a"), key("c"), key("d")])
        #expect(cache.reservedByteCount == 0 && cache.byteCount == 1200)
    }

    @Test func aReservationEvictsOnlyWhatIsLessUrgent() throws {
        let cache = ImageCache(byteLimit: 1200)
        for name in ["a", "b", "c"] { cache.insert(entry, for: key(name)) }
        cache.prioritize([key("a"), key("new"), key("b"), key("c"), key("late")])
        let reservation = try #require(granted(cache.reserve(300, for: key("new"))))
        #expect(cache.keys == [key("a"), key("b")])  // c, the least urgent, made room

        // "late" could only have room by evicting what is more urgent: refused, nothing evicted.
        guard case .refused = cache.reserve(300, for: key("late")) else {
            Issue.record("a less urgent decode was let in")
            return
        }
        #expect(cache.keys == [key("a"), key("b")])
        #expect(cache.reservedByteCount == 300)
        cache.release(reservation)  // the decode failed
        #expect(cache.reservedByteCount == 0)
    }

    @Test func theMostUrgentKeyGrowsTheLimitOnceNothingElseIsDecoding() throws {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(entry, for: key("old"))
        cache.prioritize([key("big"), key("small")])
        let small = try #require(granted(cache.reserve(300, for: key("small"))))
        // Another decode holds room: the most urgent waits for it rather than grow past the need.
        guard case .refused = cache.reserve(5000, for: key("big")) else {
            Issue.record("the limit grew while another decode held room")
            return
        }
        cache.release(small)
        guard case let .grown(big, limit) = cache.reserve(5000, for: key("big")) else {
            Issue.record("the most urgent decode was refused")
            return
        }
        #expect(limit == 5000 && cache.byteLimit == 5000)
        #expect(cache.count == 0)  // everything less urgent went first
        cache.insert(.single(Bitmap(width: 30, height: 30)), replacing: big)
        #expect(cache.keys == [key("big")] && cache.byteCount == 3600 && cache.reservedByteCount == 0)
    }
}
