import CLcms2

/// An lcms profile, owned (closed once): a photo's embedded ICC profile, one built from CICP code
/// points, or sRGB itself.
final class ColourProfile {
    let handle: cmsHPROFILE

    private init(handle: cmsHPROFILE) {
        self.handle = handle
    }

    deinit {
        cmsCloseProfile(handle)
    }

    /// An embedded profile, read from its bytes and checked to describe RGB pixels as a source:
    /// garbage, a grey or CMYK profile, a device link, an abstract or named-colour profile is an
    /// error (the photo shows unconverted).
    static func icc(_ bytes: [UInt8], in context: LcmsContext) throws -> ColourProfile {
        guard let size = UInt32(exactly: bytes.count) else { throw ColourError("ICC profile of \(bytes.count) bytes") }
        let profile = ColourProfile(handle: try context.call("cmsOpenProfileFromMem") {
            cmsOpenProfileFromMemTHR($0, bytes, size)
        })
        let space = cmsGetColorSpace(profile.handle)
        guard space == cmsSigRgbData else {
            throw ColourError("the ICC profile is for \(signatureText(space.rawValue)) pixels, not RGB")
        }
        let deviceClass = cmsGetDeviceClass(profile.handle)
        guard ![cmsSigLinkClass, cmsSigAbstractClass, cmsSigNamedColorClass].contains(deviceClass) else {
            throw ColourError("the ICC profile is of class '\(signatureText(deviceClass.rawValue))', not a device's")
        }
        let pcs = cmsGetPCS(profile.handle)
        guard pcs == cmsSigXYZData || pcs == cmsSigLabData else {
            throw ColourError("the ICC profile's connection space is '\(signatureText(pcs.rawValue))'")
        }
        return profile
    }

    /// lcms's built-in sRGB (IEC 61966-2.1, D65 adapted to D50 as ICC profiles are).
    static func sRGB(in context: LcmsContext) throws -> ColourProfile {
        ColourProfile(handle: try context.call("cmsCreate_sRGBProfile") { cmsCreate_sRGBProfileTHR($0) })
    }

    /// A matrix-shaper RGB profile: `primaries` and `white` as CIE xy, the same curve on each channel.
    static func rgb(primaries: CICPPrimaries, curve: ToneCurve, in context: LcmsContext) throws -> ColourProfile {
        var white = cmsCIExyY(x: primaries.white.x, y: primaries.white.y, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: primaries.red.x, y: primaries.red.y, Y: 1),
                                     Green: cmsCIExyY(x: primaries.green.x, y: primaries.green.y, Y: 1),
                                     Blue: cmsCIExyY(x: primaries.blue.x, y: primaries.blue.y, Y: 1))
        var curves: [OpaquePointer?] = [curve.handle, curve.handle, curve.handle]
        return ColourProfile(handle: try context.call("cmsCreateRGBProfile") {
            cmsCreateRGBProfileTHR($0, &white, &triple, &curves)
        })
    }

    /// True when this profile is sRGB as far as 8-bit pixels can tell: a matrix-shaper whose
    /// colorants are sRGB's (within 0.002 in XYZ) and whose three curves give every 8-bit level
    /// back within half a level through sRGB's inverse curve. This recognises the sRGB profiles
    /// cameras, phones and editors embed (HP's of 1998, ICC's sRGB2014, Apple's, Android's, the
    /// compact ones of the web), whatever their version, size or profile ID, for the cost of
    /// reading a few tags and 768 curve evaluations (the result is cached per profile).
    func isSRGB(_ reference: SRGBReference) -> Bool {
        guard cmsIsMatrixShaper(handle) != 0 else { return false }
        let channels = [(cmsSigRedColorantTag, cmsSigRedTRCTag), (cmsSigGreenColorantTag, cmsSigGreenTRCTag),
                        (cmsSigBlueColorantTag, cmsSigBlueTRCTag)]
        for (index, (colorantTag, curveTag)) in channels.enumerated() {
            guard let colorant = cmsReadTag(handle, colorantTag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  let curve = cmsReadTag(handle, curveTag).map({ OpaquePointer($0) }) else { return false }
            let expected = reference.colorants[index]
            let tolerance = 0.002
            guard abs(colorant.X - expected.X) <= tolerance, abs(colorant.Y - expected.Y) <= tolerance,
                  abs(colorant.Z - expected.Z) <= tolerance else { return false }
            for level in 0...255 {
                let linear = cmsEvalToneCurveFloat(curve, Float(level) / 255)
                guard abs(reference.inverseCurve(linear) * 255 - Float(level)) <= 0.5 else { return false }
            }
        }
        return true
    }
}

/// What `ColourProfile.isSRGB` compares with, read once from lcms's own sRGB profile.
struct SRGBReference {
    let colorants: [cmsCIEXYZ]
    let inverseCurve: ToneCurve

    init(_ sRGB: ColourProfile, in context: LcmsContext) throws {
        colorants = try [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].map { tag in
            try context.call("cmsReadTag") { _ in cmsReadTag(sRGB.handle, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee }
        }
        inverseCurve = try ToneCurve.sRGB(in: context).reversed(in: context)
    }
}

/// An ICC signature as its four characters ('GRAY', 'CMYK', 'link').
func signatureText(_ value: UInt32) -> String {
    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        .trimmingSuffix(" ")
}

private extension String {
    func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
