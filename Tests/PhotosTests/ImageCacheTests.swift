import Blitter
import Photos
import Testing

@Suite struct ImageCacheTests {
    /// 10x10 pixels alone, as a thumbnail is held: 400 bytes.
    static func entry(_ color: UInt32) -> MipChain { .single(Bitmap(width: 10, height: 10, color: color)) }
    static func key(_ name: String) -> ImageKey { ImageKey(path: name, size: ImageSize(width: 10, height: 10)) }

    @Test func evictsTheLeastRecentlyUsedPastTheByteLimit() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(Self.entry(1), for: Self.key("a"))
        cache.insert(Self.entry(2), for: Self.key("b"))
        #expect(cache.byteCount == 800)
        _ = cache.image(for: Self.key("a"))  // a is now more recent than b
        cache.insert(Self.entry(3), for: Self.key("c"))
        #expect(cache.keys == [Self.key("a"), Self.key("c")])
        #expect(cache.byteCount == 800)
        #expect(cache.image(for: Self.key("a"))?.pixels.first == 1)
        #expect(cache.image(for: Self.key("b")) == nil)
    }

    @Test func mipLevelsCountAgainstTheLimit() {
        // 16x16 with its levels (8x8, 4x4, 2x2, 1x1): 341 pixels, 1,364 bytes.
        let chain = MipChain(Bitmap(width: 16, height: 16))
        let cache = ImageCache(byteLimit: 3000)
        cache.insert(chain, for: Self.key("a"))
        cache.insert(chain, for: Self.key("b"))
        #expect(cache.byteCount == 2 * 1364)
        cache.insert(chain, for: Self.key("c"))  // three would be 4,092 bytes
        #expect(cache.keys == [Self.key("b"), Self.key("c")])
        #expect(cache.byteCount == 2 * 1364)
        #expect(cache.mipChain(for: Self.key("c"))?.levels.count == 5)
    }

    @Test func sizesOfOnePhotoAreSeparateEntries() {
        let cache = ImageCache(byteLimit: 10_000)
        let small = ImageKey(path: "p", size: ImageSize(width: 10, height: 10))
        let large = ImageKey(path: "p", size: ImageSize(width: 20, height: 20))
        cache.insert(Self.entry(1), for: small)
        cache.insert(.single(Bitmap(width: 20, height: 20, color: 2)), for: large)
        cache.insert(Self.entry(3), for: Self.key("q"))
        #expect(cache.count == 3)
        cache.removeAll(path: "p")
        #expect(cache.keys == [Self.key("q")])
        #expect(cache.byteCount == 400)
    }

    @Test func replacingAnEntryCountsItsBytesOnce() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(Self.entry(1), for: Self.key("a"))
        cache.insert(Self.entry(2), for: Self.key("a"))
        #expect(cache.byteCount == 400)
        #expect(cache.image(for: Self.key("a"))?.pixels.first == 2)
    }

    @Test func anEntryLargerThanTheLimitIsKeptAlone() {
        let cache = ImageCache(byteLimit: 1000)
        cache.insert(Self.entry(1), for: Self.key("a"))
        let huge = ImageKey(path: "huge", size: ImageSize(width: 40, height: 40))
        cache.insert(.single(Bitmap(width: 40, height: 40)), for: huge)
        #expect(cache.keys == [huge])
    }
}
