import Blitter
import Photos
import Testing

@Suite struct ImageCacheTests {
    /// 10x10 pixels: 400 bytes.
    static func bitmap(_ color: UInt32) -> Bitmap { Bitmap(width: 10, height: 10, color: color) }
    static func key(_ name: String) -> ImageKey { ImageKey(path: name, size: ImageSize(width: 10, height: 10)) }

    @Test func evictsTheLeastRecentlyUsedPastTheByteLimit() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(Self.bitmap(1), for: Self.key("a"))
        cache.insert(Self.bitmap(2), for: Self.key("b"))
        #expect(cache.byteCount == 800)
        _ = cache.image(for: Self.key("a"))  // a is now more recent than b
        cache.insert(Self.bitmap(3), for: Self.key("c"))
        #expect(cache.keys == [Self.key("a"), Self.key("c")])
        #expect(cache.byteCount == 800)
        #expect(cache.image(for: Self.key("a"))?.pixels.first == 1)
        #expect(cache.image(for: Self.key("b")) == nil)
    }

    @Test func sizesOfOnePhotoAreSeparateEntries() {
        let cache = ImageCache(byteLimit: 10_000)
        let small = ImageKey(path: "p", size: ImageSize(width: 10, height: 10))
        let large = ImageKey(path: "p", size: ImageSize(width: 20, height: 20))
        cache.insert(Self.bitmap(1), for: small)
        cache.insert(Bitmap(width: 20, height: 20, color: 2), for: large)
        cache.insert(Self.bitmap(3), for: Self.key("q"))
        #expect(cache.count == 3)
        cache.removeAll(path: "p")
        #expect(cache.keys == [Self.key("q")])
        #expect(cache.byteCount == 400)
    }

    @Test func replacingAnEntryCountsItsBytesOnce() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(Self.bitmap(1), for: Self.key("a"))
        cache.insert(Self.bitmap(2), for: Self.key("a"))
        #expect(cache.byteCount == 400)
        #expect(cache.image(for: Self.key("a"))?.pixels.first == 2)
    }

    @Test func anEntryLargerThanTheLimitIsKeptAlone() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(Self.bitmap(1), for: Self.key("a"))
        let huge = ImageKey(path: "huge", size: ImageSize(width: 40, height: 40))
        cache.insert(Bitmap(width: 40, height: 40), for: huge)
        #expect(cache.keys == [huge])
    }
}
