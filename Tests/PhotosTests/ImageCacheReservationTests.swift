import Blitter
import Photos
import Testing

/// Memory held outside the cache (decode buffers, mip levels) counts against its limit.
@Suite struct ImageCacheReservationTests {
    private func key(_ name: String) -> ImageKey { ImageKey(path: name, size: ImageSize(width: 10, height: 10)) }
    private let bitmap = Bitmap(width: 10, height: 10)  // 400 bytes

    @Test func aReservationEvictsTheLeastRecentlyUsed() {
        let cache = ImageCache(byteLimit: 1200)
        for name in ["a", "b", "c"] { cache.insert(bitmap, for: key(name)) }
        _ = cache.image(for: key("a"))  // b is now the oldest
        cache.reserve(300)
        #expect(cache.keys == [key("a"), key("c")])
        #expect(cache.reservedByteCount == 300)

        // While reserved, an insert makes room for the reservation too.
        cache.insert(bitmap, for: key("d"))
        #expect(cache.keys == [key("a"), key("d")])
        cache.release(300)
        cache.insert(bitmap, for: key("e"))
        #expect(cache.keys == [key("a"), key("d"), key("e")])
        #expect(cache.reservedByteCount == 0)
    }

    @Test func aReservationLargerThanTheLimitEmptiesTheCacheButNoMore() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(bitmap, for: key("a"))
        cache.reserve(5000)
        #expect(cache.count == 0)
        // What was just decoded is still kept, as without reservations.
        cache.insert(bitmap, for: key("b"))
        #expect(cache.keys == [key("b")])
        cache.release(9000)  // more than reserved: clamps at zero
        #expect(cache.reservedByteCount == 0)
    }
}
