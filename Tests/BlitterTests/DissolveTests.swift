@testable import Blitter
import Geometry
import TestSupport
import Testing

/// The dissolve (a slideshow's crossfade, Ken Burns, portrait pairs): each pixel the sum of its
/// pages times their alphas over black, against the definition in Double and in integers.
@Suite struct DissolveTests {
    /// What one layer alone draws over black at alpha 1 (as the renderer's page path draws it),
    /// and the pixels it covers.
    private static func alone(_ layer: DissolveLayer, width: Int, height: Int) -> (picture: Bitmap, covered: PixelRect) {
        var picture = Bitmap(width: width, height: height)
        let covered = layer.pixels(within: picture.bounds)
        switch layer.content {
        case .image(let chain): picture.drawAspectFill(chain, in: layer.rect, clip: covered)
        case .bitmap(let bitmap): picture.drawAspectFill(bitmap, in: layer.rect, clip: covered)
        case .color(let color): picture.fill(covered, color: color)
        }
        return (picture, covered)
    }

    private static func contains(_ rect: PixelRect, _ x: Int, _ y: Int) -> Bool {
        (rect.minX..<rect.maxX).contains(x) && (rect.minY..<rect.maxY).contains(y)
    }

    /// The definition in integers: weights in 256ths, cut to add up to at most 256 in order.
    private static func integerDissolve(_ layers: [DissolveLayer], width: Int, height: Int) -> Bitmap {
        let drawn = layers.map { alone($0, width: width, height: height) }
        var out = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var left = PixelMath.opaque, sums = [128, 128, 128]
                for (layer, (picture, covered)) in zip(layers, drawn) where contains(covered, x, y) {
                    let weight = min(PixelMath.alphaWeight(layer.alpha), left)
                    left -= weight
                    for (c, p) in TestImages.channels(picture[x, y]).enumerated() { sums[c] += p * weight }
                }
                out[x, y] = Pixel.rgb(UInt8(sums[0] / 256), UInt8(sums[1] / 256), UInt8(sums[2] / 256))
            }
        }
        return out
    }

    /// The definition in Double: sum of alpha x page, each page the exact scaled reference.
    private static func doubleDissolve(_ layers: [DissolveLayer], width: Int, height: Int) -> Bitmap {
        var pages: [(Bitmap, PixelRect)] = []
        for layer in layers {
            var page = Bitmap(width: width, height: height)
            let covered = layer.pixels(within: page.bounds)
            switch layer.source {
            case .rows(let bitmap, let x0, let y0): page.copy(from: bitmap, to: (x0, y0))
            case .scaled(let bitmap, let sourceRect):
                page.drawScaledReference(bitmap, sourceRect: sourceRect, into: layer.rect, clip: covered)
            case .color(let color): page.fill(covered, color: color)
            case nil: break
            }
            pages.append((page, covered))
        }
        var out = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var sums = [0.0, 0.0, 0.0]
                for (layer, (page, covered)) in zip(layers, pages) where contains(covered, x, y) {
                    for (c, p) in TestImages.channels(page[x, y]).enumerated() { sums[c] += Double(p) * max(0, min(1, layer.alpha)) }
                }
                let bytes = sums.map { UInt8(min(255, $0.rounded())) }
                out[x, y] = Pixel.rgb(bytes[0], bytes[1], bytes[2])
            }
        }
        return out
    }

    private static func dissolved(_ layers: [DissolveLayer], width: Int, height: Int, over start: UInt32 = TestImages.untouched) -> Bitmap {
        var target = Bitmap(width: width, height: height, color: start)
        Dissolve().draw(layers, into: &target, clip: target.bounds)
        return target
    }

    // MARK: - Kernels

    /// The two-source pass and the one-source weighing, vector and scalar tail, against the
    /// per-channel formula, for every count up to 19 and weights adding up to at most 256.
    @Test func rowKernelsMatchThePerChannelFormula() {
        var rng = SplitMix64(seed: 2501)
        for count in 0...19 {
            let a = TestImages.random(width: count, height: 1, using: &rng), b = TestImages.random(width: count, height: 1, using: &rng)
            for (wa, wb) in [(128, 128), (256, 0), (0, 256), (77, 179), (1, 255), (200, 30), (0, 0), (255, 1)] {
                var out = [UInt32](repeating: 0xFFFF_FFFF, count: max(1, count))
                a.pixels.withUnsafeBufferPointer { pa in
                    b.pixels.withUnsafeBufferPointer { pb in
                        out.withUnsafeMutableBufferPointer { po in
                            guard let pa = pa.baseAddress, let pb = pb.baseAddress, let po = po.baseAddress else { return }
                            DissolveRow.mix(pa, weight: wa, pb, weight: wb, into: po, count: count)
                        }
                    }
                }
                for x in 0..<count {
                    let expected = zip(TestImages.channels(a[x, 0]), TestImages.channels(b[x, 0])).map { UInt8(($0 * wa + $1 * wb + 128) / 256) }
                    #expect(out[x] == Pixel.rgb(expected[0], expected[1], expected[2]), "mix \(count) \(wa)/\(wb) at \(x)")
                }
                a.pixels.withUnsafeBufferPointer { pa in
                    out.withUnsafeMutableBufferPointer { po in
                        guard let pa = pa.baseAddress, let po = po.baseAddress else { return }
                        DissolveRow.weigh(pa, weight: wa, into: po, count: count)
                    }
                }
                for x in 0..<count {
                    #expect(out[x] == PixelMath.referenceBlend(a[x, 0], over: Pixel.black, alpha: wa), "weigh \(count) \(wa) at \(x)")
                }
            }
        }
    }

    // MARK: - Crossfades

    /// Two pictures of the same size at whole pixels (read straight from their rows), an odd
    /// target, offsets that leave each alone at some pixels: the integer definition exactly, the
    /// Double one within a level, black where neither is, at alpha 0, 1 and between.
    @Test func aCrossfadeOfTheSameSizeIsTheDefinition() {
        var rng = SplitMix64(seed: 2502)
        let previous = MipChain(TestImages.structured(width: 31, height: 21, using: &rng))
        let next = MipChain(TestImages.structured(width: 31, height: 21, using: &rng))
        for a in [0, 0.001, 0.25, 0.5, 0.7, 0.998046875, 0.999, 1] {
            let layers = [DissolveLayer.image(previous, in: Rect(x: 2, y: 3, width: 31, height: 21), alpha: 1 - a),
                          DissolveLayer.image(next, in: Rect(x: 7, y: 1, width: 31, height: 21), alpha: a)]
            let picture = Self.dissolved(layers, width: 37, height: 27)
            #expect(picture.pixels == Self.integerDissolve(layers, width: 37, height: 27).pixels, "a \(a)")
            #expect(largestDifference(picture, Self.doubleDissolve(layers, width: 37, height: 27)) <= 1, "a \(a)")
            #expect(picture[0, 0] == Pixel.black && picture[36, 26] == Pixel.black)
        }
    }

    /// Two equal pictures crossfading stay that picture at every alpha (the weights never add up
    /// to more than one, even where 1 - a and a both round up).
    @Test func aCrossfadeBetweenEqualPicturesIsThatPicture() {
        var rng = SplitMix64(seed: 2503)
        let image = MipChain(TestImages.random(width: 19, height: 13, using: &rng))
        let rect = Rect(x: 0, y: 0, width: 19, height: 13)
        for step in 0...512 {
            let a = Double(step) / 512
            let picture = Self.dissolved([.image(image, in: rect, alpha: 1 - a), .image(image, in: rect, alpha: a)], width: 19, height: 13)
            #expect(picture.pixels == image.image.pixels, "a \(a)")
            if picture.pixels != image.image.pixels { return }
        }
    }

    /// A landscape over a portrait (different aspect ratios, scaled, at fractions of a pixel,
    /// past the target's edges, target taller than a band): the integer definition from the
    /// blitter's own scaled draws exactly, the Double one (exact scaled references) within 2.
    @Test func aCrossfadeOfDifferentAspectRatiosScaledPastTheEdges() {
        var rng = SplitMix64(seed: 2504)
        let landscape = MipChain(TestImages.structured(width: 90, height: 60, using: &rng))
        let portrait = MipChain(TestImages.structured(width: 40, height: 60, using: &rng))
        let width = 83, height = Dissolve.bandHeight * 2 + 13
        for a in [0, 0.3, 0.5, 0.81, 1] {
            let layers = [DissolveLayer.image(landscape, in: Rect(x: -4.3, y: 7.6, width: 93.75, height: 62.5), alpha: 1 - a),
                          DissolveLayer.image(portrait, in: Rect(x: 21.4, y: -3.2, width: 53.5, height: 80.25), alpha: a)]
            let picture = Self.dissolved(layers, width: width, height: height)
            #expect(picture.pixels == Self.integerDissolve(layers, width: width, height: height).pixels, "a \(a)")
            #expect(largestDifference(picture, Self.doubleDissolve(layers, width: width, height: height)) <= 2, "a \(a)")
        }
    }

    // MARK: - Ken Burns

    /// One page scaled 1.0 to 1.1 of its fit rect, past the edges at fractions of a pixel, over
    /// several bands: exactly the blitter's scaled draw of it over black (the bands sample the
    /// same positions), within a level of `drawScaledReference`; at alpha 0.6 the same weighed.
    @Test func aKenBurnsPageIsTheScaledImage() throws {
        var rng = SplitMix64(seed: 2505)
        let image = MipChain(TestImages.structured(width: 64, height: 48, using: &rng))
        let width = 64, height = 48 + 2 * Dissolve.bandHeight
        let fit = Rect(x: 0, y: 0, width: Double(width), height: Double(height)).aspectFit(image.size)
        for zoom in [1.0, 1.013, 1.05, 1.1] {
            let rect = Rect(x: fit.midX - fit.width * zoom / 2 - 1.37, y: fit.midY - fit.height * zoom / 2 + 0.61,
                            width: fit.width * zoom, height: fit.height * zoom)
            let picture = Self.dissolved([.image(image, in: rect, alpha: 1)], width: width, height: height)
            var direct = Bitmap(width: width, height: height)
            direct.drawAspectFill(image, in: rect, clip: direct.bounds)
            #expect(picture.pixels == direct.pixels, "zoom \(zoom)")
            var reference = Bitmap(width: width, height: height)
            let crop = try #require(Bitmap.aspectFillCrop(of: image.size, in: rect))
            let level = image.level(for: crop, into: rect)
            reference.drawScaledReference(level.bitmap, sourceRect: level.sourceRect, into: rect, clip: reference.bounds)
            #expect(largestDifference(picture, reference) <= 1, "zoom \(zoom)")
            let faded = Self.dissolved([.image(image, in: rect, alpha: 0.6)], width: width, height: height)
            #expect(faded.pixels == direct.pixels.map { PixelMath.referenceBlend($0, over: Pixel.black, alpha: 154) }, "zoom \(zoom)")
        }
    }

    // MARK: - Portrait pairs and more

    /// A portrait pair fading to the next pair: four pages, each pixel under at most two; a
    /// placeholder colour for a photo not decoded; three pages over one pixel (weights cut in
    /// order). The integer definition exactly, clipped to part of the target (the rest untouched).
    @Test func pairsPlaceholdersAndThreePagesAreTheDefinition() {
        var rng = SplitMix64(seed: 2506)
        let p = (0..<4).map { _ in MipChain(TestImages.structured(width: 20, height: 30, using: &rng)) }
        let pairs: [DissolveLayer] = [
            .image(p[0], in: Rect(x: 10, y: 0, width: 20, height: 30), alpha: 0.35),
            .image(p[1], in: Rect(x: 30, y: 0, width: 20, height: 30), alpha: 0.35),
            .image(p[2], in: Rect(x: 6.5, y: 0.25, width: 21, height: 31.5), alpha: 0.65),
            .color(0x20_40_60, in: Rect(x: 33.2, y: 2.7, width: 20, height: 24), alpha: 0.65),
        ]
        let three: [DissolveLayer] = [.image(p[3], in: Rect(x: 0, y: 0, width: 20, height: 30), alpha: 0.5),
                                      .color(0xFF_FF_FF, in: Rect(x: 5, y: 5, width: 30, height: 20), alpha: 0.4),
                                      .image(p[0].image, in: Rect(x: 10.5, y: 10.5, width: 20, height: 30), alpha: 0.7)]
        for layers in [pairs, three] {
            let width = 57, height = 33
            #expect(Self.dissolved(layers, width: width, height: height).pixels == Self.integerDissolve(layers, width: width, height: height).pixels)
            var clipped = Bitmap(width: width, height: height, color: TestImages.untouched)
            let clip = PixelRect(x: 3, y: 2, width: 40, height: 25)
            Dissolve().draw(layers, into: &clipped, clip: clip)
            let whole = Self.integerDissolve(layers, width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    #expect(clipped[x, y] == (Self.contains(clip, x, y) ? whole[x, y] : TestImages.untouched), "\(x),\(y)")
                }
            }
        }
    }
}
