import CLcms2
@testable import Colour

/// ICC profiles made by lcms itself, as bytes a file would carry.
enum ICCTestProfiles {
    static let displayP3Primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1),
                                                    Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
                                                    Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
    static let sRGBPrimaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.640, y: 0.330, Y: 1),
                                               Green: cmsCIExyY(x: 0.300, y: 0.600, Y: 1),
                                               Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))

    /// Display P3 as Apple defines it: D65, SMPTE EG 432-1 primaries, the sRGB curve.
    static var displayP3: [UInt8] { rgb(primaries: displayP3Primaries, curve: sRGBCurve) }
    /// lcms's own sRGB profile.
    static var sRGB: [UInt8] { saved(cmsCreate_sRGBProfile()) }
    /// sRGB's primaries with a plain gamma 2.2: close to sRGB, but not it (its shadows differ).
    static var sRGBPrimariesGamma22: [UInt8] { rgb(primaries: sRGBPrimaries, curve: cmsBuildGamma(nil, 2.2)) }
    /// A grey profile (gamma 2.2).
    static var grey: [UInt8] {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        return saved(cmsCreateGrayProfile(&white, cmsBuildGamma(nil, 2.2)))
    }
    /// An RGB device link: not a description of a photo's pixels.
    static var deviceLink: [UInt8] {
        let curve = cmsBuildGamma(nil, 1.0)
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return saved(cmsCreateLinearizationDeviceLink(cmsSigRgbData, &curves))
    }
    /// Display P3 with its colorants removed: an RGB display profile lcms cannot use as a source.
    static var withoutColorants: [UInt8] {
        let profile = open(displayP3)
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] { cmsWriteTag(profile, tag, nil) }
        return saved(profile)
    }

    static var sRGBCurve: OpaquePointer {
        cmsBuildParametricToneCurve(nil, 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
    }

    static func rgb(primaries: cmsCIExyYTRIPLE, curve: OpaquePointer) -> [UInt8] {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var triple = primaries
        var curves: [OpaquePointer?] = [curve, curve, curve]
        defer { cmsFreeToneCurve(curve) }
        return saved(cmsCreateRGBProfile(&white, &triple, &curves))
    }

    static func open(_ bytes: [UInt8]) -> cmsHPROFILE {
        cmsOpenProfileFromMem(bytes, UInt32(bytes.count))
    }

    /// The profile's bytes; the profile is closed.
    static func saved(_ profile: cmsHPROFILE?) -> [UInt8] {
        guard let profile else { return [] }
        defer { cmsCloseProfile(profile) }
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return [] }
        return bytes
    }
}
