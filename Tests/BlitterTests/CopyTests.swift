import Testing
import Blitter
import Geometry
import TestSupport

@Suite struct CopyTests {
    /// What a clipped 1:1 copy means, pixel by pixel.
    static func expectedCopy(of source: Bitmap, sourceRect: PixelRect, over destination: Bitmap,
                             origin: (x: Int, y: Int), clip: PixelRect) -> Bitmap {
        var out = destination
        for y in 0..<destination.height {
            for x in 0..<destination.width where x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
                let sx = x - origin.x + sourceRect.minX, sy = y - origin.y + sourceRect.minY
                guard sx >= max(0, sourceRect.minX), sx < min(source.width, sourceRect.maxX),
                      sy >= max(0, sourceRect.minY), sy < min(source.height, sourceRect.maxY) else { continue }
                out[x, y] = source[sx, sy]
            }
        }
        return out
    }

    @Test func copyClipsAtEveryEdgeAndNegativeOrigins() {
        let source = TestImages.distinct(width: 4, height: 3)
        let background = Bitmap(width: 6, height: 5, color: TestImages.untouched)
        for oy in -4...6 {
            for ox in -5...7 {
                var bitmap = background
                bitmap.copy(from: source, to: (x: ox, y: oy))
                let expected = Self.expectedCopy(of: source, sourceRect: source.bounds, over: background,
                                                 origin: (ox, oy), clip: background.bounds)
                #expect(bitmap.pixels == expected.pixels, "origin (\(ox), \(oy))")
            }
        }
    }

    @Test func aCopyOfWholeRowsLargerThanOnePieceIsExact() {
        // 300 x 300 whole rows are one run of 90,000 pixels, copied in more than one piece; the
        // rows above and below the landing place keep what they had.
        var rng = SplitMix64(seed: 7)
        let source = TestImages.random(width: 300, height: 300, using: &rng)
        let background = Bitmap(width: 300, height: 300, color: TestImages.untouched)
        for (sourceRect, origin) in [(source.bounds, (x: 0, y: 0)),
                                     (PixelRect(x: 0, y: 7, width: 300, height: 280), (x: 0, y: 11)),
                                     (PixelRect(x: 0, y: 0, width: 300, height: 300), (x: 0, y: -19))] {
            var bitmap = background
            bitmap.copy(from: source, sourceRect: sourceRect, to: origin)
            let expected = Self.expectedCopy(of: source, sourceRect: sourceRect, over: background, origin: origin,
                                             clip: background.bounds)
            #expect(bitmap.pixels == expected.pixels, "\(sourceRect) to \(origin)")
        }
    }

    /// Rows shorter than the bitmaps' (copied row by row, the next row asked for ahead) of every
    /// length around the 16-pixel blocks, from and to any column: the source's pixels, nothing
    /// beside, above or below them touched.
    @Test func rowByRowCopiesOfAnyWidthAndOffsetAreExact() {
        var rng = SplitMix64(seed: 11)
        let source = TestImages.random(width: 120, height: 9, using: &rng)
        let background = Bitmap(width: 130, height: 12, color: TestImages.untouched)
        for width in [1, 3, 15, 16, 17, 31, 32, 33, 47, 100] {
            for (sourceX, x) in [(0, 0), (1, 5), (7, 13), (120 - width, 3)] {
                let sourceRect = PixelRect(x: sourceX, y: 1, width: width, height: 7)
                var bitmap = background
                bitmap.copy(from: source, sourceRect: sourceRect, to: (x: x, y: 2))
                let expected = Self.expectedCopy(of: source, sourceRect: sourceRect, over: background,
                                                 origin: (x, 2), clip: background.bounds)
                let wrong = bitmap.pixels.indices.first { bitmap.pixels[$0] != expected.pixels[$0] }
                #expect(wrong == nil, "width \(width) from \(sourceX) to \(x): pixel \(wrong ?? 0) (\((wrong ?? 0) % 130), \((wrong ?? 0) / 130))")
            }
        }
    }

    /// A scroll in place: every row lands `dy` rows on, in more than one piece (300 x 600 is
    /// 180,000 pixels), up and down, by less than a piece and by more; the rows uncovered keep
    /// their pixels, and a shift of the whole height or more does nothing.
    @Test func rowsMovedInPlaceLandWhereTheyShould() {
        var rng = SplitMix64(seed: 8)
        let original = TestImages.random(width: 300, height: 600, using: &rng)
        for dy in [-1, 1, -7, 7, -250, 250, -599, 599, 600, -600, 0] {
            var moved = original
            moved.moveRows(by: dy)
            var expected = original
            for y in 0..<original.height where y - dy >= 0 && y - dy < original.height {
                for x in 0..<original.width { expected[x, y] = original[x, y - dy] }
            }
            #expect(moved.pixels == expected.pixels, "dy \(dy)")
        }
    }

    @Test func copyHonoursSourceRectAndClip() {
        let source = TestImages.distinct(width: 8, height: 8)
        let background = Bitmap(width: 10, height: 10, color: TestImages.untouched)
        let sourceRects = [PixelRect(x: 2, y: 1, width: 4, height: 5), PixelRect(x: -2, y: -3, width: 5, height: 5),
                           PixelRect(x: 6, y: 6, width: 5, height: 5)]
        let clips = [PixelRect(x: 3, y: 2, width: 4, height: 6), PixelRect(x: -5, y: -5, width: 8, height: 30)]
        for sourceRect in sourceRects {
            for clip in clips {
                for origin in [(x: 1, y: 1), (x: 5, y: -2), (x: -1, y: 4)] {
                    var bitmap = background
                    bitmap.copy(from: source, sourceRect: sourceRect, to: origin, clip: clip)
                    let expected = Self.expectedCopy(of: source, sourceRect: sourceRect, over: background, origin: origin, clip: clip)
                    #expect(bitmap.pixels == expected.pixels, "\(sourceRect) to \(origin) clip \(clip)")
                }
            }
        }
    }

    @Test func copyPlacesTheSourceRectsCornerAtTheOrigin() {
        let source = TestImages.distinct(width: 8, height: 8)
        var bitmap = Bitmap(width: 10, height: 10, color: TestImages.untouched)
        bitmap.copy(from: source, sourceRect: PixelRect(x: 3, y: 2, width: 2, height: 2), to: (x: 5, y: 6))
        #expect(bitmap[5, 6] == source[3, 2])
        #expect(bitmap[6, 7] == source[4, 3])
        #expect(bitmap[4, 6] == TestImages.untouched && bitmap[7, 7] == TestImages.untouched)
    }

    @Test func blendedCopyAtZeroHalfAndFullAlpha() {
        var rng = SplitMix64(seed: 3)
        let source = TestImages.random(width: 5, height: 5, using: &rng)
        let background = TestImages.random(width: 7, height: 6, using: &rng)

        var none = background
        none.blend(from: source, to: (x: 1, y: 1), alpha: 0)
        #expect(none.pixels == background.pixels)

        var full = background
        full.blend(from: source, to: (x: -1, y: 2), alpha: 1)
        var copied = background
        copied.copy(from: source, to: (x: -1, y: 2))
        #expect(full.pixels == copied.pixels)

        var half = background
        half.blend(from: source, to: (x: 3, y: -2), alpha: 0.5, clip: PixelRect(x: 0, y: 0, width: 5, height: 6))
        for y in 0..<6 {
            for x in 0..<7 {
                guard x >= 3, x < 5, y < 3 else {
                    #expect(half[x, y] == background[x, y])
                    continue
                }
                let expected = zip(TestImages.channels(source[x - 3, y + 2]), TestImages.channels(background[x, y]))
                    .map { s, d in (s * 128 + d * 128 + 128) / 256 }
                #expect(TestImages.channels(half[x, y]) == expected)
            }
        }
    }
}
