import Blitter
@testable import Colour
import TestSupport
import Testing

/// A bitmap of `colours`, one pixel each, in one row.
private func row(_ colours: [(UInt8, UInt8, UInt8)]) -> Bitmap {
    Bitmap(width: colours.count, height: 1, stride: colours.count, pixels: colours.map { Pixel.rgb($0.0, $0.1, $0.2) })
}

@Suite struct ColourConverterTests {
    @Test func displayP3BecomesTheSRGBLcmsGives() throws {
        // The sRGB values Debian's lcms 2.14 gives: `transicc -t 0 -i display_p3.icc -o '*sRGB'`
        // says 230 40 30 -> 250.98 -36.76 -9.72 (clipped: 251 0 0) and 200 150 60 -> 209.19
        // 147.40 31.81; Pillow's ImageCms gives the same, rounded.
        var bitmap = row([(230, 40, 30), (200, 150, 60), (0, 0, 0), (255, 255, 255)])
        let converter = try ColourConverter()
        #expect(try converter.convertToSRGB(&bitmap, from: .icc(ICCTestProfiles.displayP3)))
        let expected = row([(251, 0, 0), (209, 147, 32), (0, 0, 0), (255, 255, 255)])
        #expect(largestDifference(bitmap, expected) <= 1, "\(bitmap.pixels.map { String($0, radix: 16) })")
        #expect(bitmap.pixels.allSatisfy { $0 >> 24 == 0 }, "the X byte stays zero")
        #expect(converter.statistics == .init(converted: 1, untouched: 0, cacheHits: 0, cacheMisses: 1))
    }

    @Test func cicpDisplayP3ConvertsAsItsICCProfileDoes() throws {
        let colours: [(UInt8, UInt8, UInt8)] = (0..<64).map { (i: Int) in
            (UInt8(i * 4), UInt8(255 - i * 3), UInt8(truncatingIfNeeded: i * i))
        }
        var fromICC = row(colours), fromCICP = row(colours)
        let converter = try ColourConverter()
        try converter.convertToSRGB(&fromICC, from: .icc(ICCTestProfiles.displayP3))
        #expect(try converter.convertToSRGB(&fromCICP, from: .cicp(primaries: 12, transfer: 13, matrix: 6, fullRange: true)))
        #expect(largestDifference(fromICC, fromCICP) <= 1)
        #expect(largestDifference(fromCICP, row(colours)) > 10)
    }

    @Test func bt2020ConvertsAndIsNotP3() throws {
        var p3 = row([(200, 150, 60)]), bt2020 = row([(200, 150, 60)])
        let converter = try ColourConverter()
        try converter.convertToSRGB(&p3, from: .cicp(primaries: 12, transfer: 1, matrix: 1, fullRange: false))
        try converter.convertToSRGB(&bt2020, from: .cicp(primaries: 9, transfer: 14, matrix: 9, fullRange: false))
        #expect(largestDifference(p3, bt2020) > 10)
    }

    static let sRGBDescriptions: [String: ColourDescription] = [
        "lcms's sRGB profile": .icc(ICCTestProfiles.sRGB),
        "CICP sRGB": .cicp(primaries: 1, transfer: 13, matrix: 6, fullRange: true),
        "CICP BT.709": .cicp(primaries: 1, transfer: 1, matrix: 1, fullRange: false),
        "CICP BT.709 primaries, BT.601 transfer": .cicp(primaries: 1, transfer: 6, matrix: 6, fullRange: false),
        "CICP unspecified": .cicp(primaries: 2, transfer: 2, matrix: 2, fullRange: true),
    ]

    @Test(arguments: sRGBDescriptions.keys.sorted())
    func sRGBDescriptionsLeaveThePixelsAlone(name: String) throws {
        let description = try #require(Self.sRGBDescriptions[name])
        let colours: [(UInt8, UInt8, UInt8)] = (0..<256).map { (i: Int) in
            (UInt8(i), UInt8(255 - i), UInt8(truncatingIfNeeded: i * 7))
        }
        var bitmap = row(colours)
        let converter = try ColourConverter()
        #expect(try !converter.convertToSRGB(&bitmap, from: description))
        #expect(bitmap.pixels == row(colours).pixels)
        #expect(try converter.isSRGB(description))
        #expect(converter.statistics.untouched == 1)
    }

    @Test func noDescriptionIsNotEvenLookedAt() throws {
        var bitmap = row([(1, 2, 3)])
        let converter = try ColourConverter()
        #expect(try !converter.convertToSRGB(&bitmap, from: nil))
        #expect(bitmap.pixels == [Pixel.rgb(1, 2, 3)])
        #expect(converter.statistics == .init())
    }

    @Test func aProfileCloseToSRGBIsConverted() throws {
        // sRGB's primaries with gamma 2.2: its shadows differ from sRGB's by several levels.
        let converter = try ColourConverter()
        #expect(try !converter.isSRGB(.icc(ICCTestProfiles.sRGBPrimariesGamma22)))
        var bitmap = row([(10, 10, 10), (128, 128, 128), (255, 255, 255)])
        try converter.convertToSRGB(&bitmap, from: .icc(ICCTestProfiles.sRGBPrimariesGamma22))
        #expect(Pixel.red(bitmap.pixels[0]) < 6 && Pixel.red(bitmap.pixels[2]) == 255)
    }

    /// Profiles that cannot be used, and the lcms call that says so (nil: Vitrine's own check).
    static let unusableProfiles: [String: (profile: [UInt8], call: String?)] = [
        "garbage": ([UInt8](repeating: 0x55, count: 300), "cmsOpenProfileFromMem"),
        "empty": ([], "cmsOpenProfileFromMem"),
        "truncated": (Array(ICCTestProfiles.displayP3.prefix(200)), "cmsOpenProfileFromMem"),
        "grey": (ICCTestProfiles.grey, nil),
        "device link": (ICCTestProfiles.deviceLink, nil),
        "display profile without colorants": (ICCTestProfiles.withoutColorants, "cmsCreateTransform"),
    ]

    @Test(arguments: unusableProfiles.keys.sorted())
    func unusableProfilesLeaveThePixelsAloneAndSayWhy(name: String) throws {
        let (profile, call) = try #require(Self.unusableProfiles[name])
        var bitmap = row([(230, 40, 30), (10, 20, 30)])
        let converter = try ColourConverter()
        let error = #expect(throws: ColourError.self) { try converter.convertToSRGB(&bitmap, from: .icc(profile)) }
        #expect(error?.call == call)
        #expect(error?.message.isEmpty == false)
        #expect(bitmap.pixels == row([(230, 40, 30), (10, 20, 30)]).pixels)
        // Remembered: the second photo with it costs a lookup.
        #expect(throws: ColourError.self) { try converter.convertToSRGB(&bitmap, from: .icc(profile)) }
        #expect(converter.statistics.cacheHits == 1)
    }

    @Test func greyAndLinkProfilesAreNamed() throws {
        let converter = try ColourConverter()
        #expect(throws: ColourError("the ICC profile is for GRAY pixels, not RGB")) { try converter.isSRGB(.icc(ICCTestProfiles.grey)) }
        #expect(throws: ColourError("the ICC profile is of class 'link', not a device's")) {
            try converter.isSRGB(.icc(ICCTestProfiles.deviceLink))
        }
    }

    @Test func unknownCICPCodePointsAreErrors() throws {
        let converter = try ColourConverter()
        #expect(throws: ColourError("CICP colour primaries 10 are not supported")) {
            try converter.isSRGB(.cicp(primaries: 10, transfer: 13, matrix: 0, fullRange: true))
        }
        #expect(throws: ColourError("CICP transfer characteristics 17 are not supported")) {
            try converter.isSRGB(.cicp(primaries: 1, transfer: 17, matrix: 0, fullRange: true))
        }
    }

    @Test func theSecondPhotoWithAProfileReusesItsTransform() throws {
        let converter = try ColourConverter()
        var first = row([(200, 150, 60)]), second = row([(200, 150, 60)])
        try converter.convertToSRGB(&first, from: .icc(ICCTestProfiles.displayP3))
        try converter.convertToSRGB(&second, from: .icc(ICCTestProfiles.displayP3))
        #expect(first.pixels == second.pixels)
        #expect(converter.statistics == .init(converted: 2, untouched: 0, cacheHits: 1, cacheMisses: 1))
    }

    @Test func theLeastRecentlyUsedDescriptionGoesFirst() throws {
        let converter = try ColourConverter(capacity: 2)
        let p3 = ColourDescription.cicp(primaries: 12, transfer: 13, matrix: 6, fullRange: true)
        let bt2020 = ColourDescription.cicp(primaries: 9, transfer: 13, matrix: 9, fullRange: true)
        let adobeLike = ColourDescription.icc(ICCTestProfiles.sRGBPrimariesGamma22)
        for description in [p3, bt2020, p3, adobeLike, p3, bt2020] { _ = try converter.isSRGB(description) }
        // p3 and bt2020 made, p3 found, adobeLike made (bt2020 dropped), p3 found, bt2020 made again.
        #expect(converter.statistics.cacheMisses == 4 && converter.statistics.cacheHits == 2)
    }

    @Test func onlyTheBitmapsPixelsChangeNotThePaddingPastItsWidth() throws {
        let padding = Pixel.rgb(200, 150, 60)
        var bitmap = Bitmap(width: 2, height: 2, stride: 3, pixels: [
            Pixel.rgb(200, 150, 60), Pixel.rgb(200, 150, 60), padding,
            Pixel.rgb(200, 150, 60), Pixel.rgb(200, 150, 60), padding,
        ])
        try ColourConverter().convertToSRGB(&bitmap, from: .icc(ICCTestProfiles.displayP3))
        #expect([bitmap[0, 0], bitmap[1, 0], bitmap[0, 1], bitmap[1, 1]].allSatisfy { $0 == Pixel.rgb(209, 147, 32) })
        #expect(bitmap.pixels[2] == padding && bitmap.pixels[5] == padding)
    }
}

@Suite struct HDRMappingTests {
    @Test func referenceWhiteIsTheSameInPQAndHLG() {
        // PQ's 203 cd/m² signal and HLG's 75% signal are BT.2408's reference white.
        #expect(abs(CICPTransfer.pqNits(0.58069) - 203) < 0.5)
        #expect(abs(CICPTransfer.hlgNits(0.75) - 203) < 1)
        #expect(abs(CICPTransfer.pqNits(1) - 10_000) < 1)
    }

    @Test func theMappingKeepsTheMidtonesAndCompressesTheHighlights() {
        #expect(CICPTransfer.hdrToSDR(nits: 0) == 0)
        #expect(abs(CICPTransfer.hdrToSDR(nits: 0.5 * 203) - 0.5) < 1e-9)  // below the knee: unchanged
        let white = CICPTransfer.hdrToSDR(nits: 203)
        #expect(white > 0.9 && white < 0.95)
        #expect(CICPTransfer.hdrToSDR(nits: 1000) > white && CICPTransfer.hdrToSDR(nits: 10_000) <= 1)
        let table = CICPTransfer.perceptualQuantizer.hdrTable()
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 <= $1 }, "monotonic")
    }

    @Test func anHDRPhotoShowsItsReferenceWhiteNearWhite() throws {
        // PQ 203 cd/m² is code 148 of 255; HLG's 75% is 191.
        var pq = row([(148, 148, 148), (255, 255, 255), (0, 0, 0)])
        var hlg = row([(191, 191, 191), (255, 255, 255), (0, 0, 0)])
        let converter = try ColourConverter()
        try converter.convertToSRGB(&pq, from: .cicp(primaries: 9, transfer: 16, matrix: 9, fullRange: false))
        try converter.convertToSRGB(&hlg, from: .cicp(primaries: 9, transfer: 18, matrix: 9, fullRange: false))
        for bitmap in [pq, hlg] {
            #expect((240...250).contains(Int(Pixel.red(bitmap.pixels[0]))), "\(String(bitmap.pixels[0], radix: 16))")
            #expect(bitmap.pixels[1] == Pixel.white && bitmap.pixels[2] == Pixel.black)
        }
    }
}

@Suite struct RecentlyUsedTests {
    @Test func dropsTheLeastRecentlyUsed() {
        var cache = RecentlyUsed<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        #expect(cache.value(for: "a") == 1)  // a is now the most recent
        cache.insert(3, for: "c")
        #expect(cache.keys == ["a", "c"])
        #expect(cache.value(for: "b") == nil)
        cache.insert(4, for: "a")
        #expect(cache.keys == ["c", "a"] && cache.value(for: "a") == 4)
    }
}
