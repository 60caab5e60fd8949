import Foundation

/// Colour primaries and white point as CIE 1931 xy, from ITU-T H.273's table 2.
struct CICPPrimaries {
    var red: (x: Double, y: Double)
    var green: (x: Double, y: Double)
    var blue: (x: Double, y: Double)
    var white: (x: Double, y: Double)

    static let d65 = (x: 0.3127, y: 0.3290)

    /// The primaries H.273 code point `code` names, if Vitrine knows them.
    init?(code: UInt16) {
        switch code {
        case 1:  // BT.709, sRGB
            self.init(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: Self.d65)
        case 4:  // BT.470 System M (illuminant C)
            self.init(red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08), white: (0.310, 0.316))
        case 5:  // BT.470 System B, G; BT.601 625 lines
            self.init(red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06), white: Self.d65)
        case 6, 7:  // BT.601 525 lines, SMPTE 170M; SMPTE 240M
            self.init(red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070), white: Self.d65)
        case 9:  // BT.2020, BT.2100
            self.init(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: Self.d65)
        case 11:  // SMPTE RP 431-2, DCI-P3 (the cinema's white)
            self.init(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.314, 0.351))
        case 12:  // SMPTE EG 432-1, Display P3
            self.init(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: Self.d65)
        case 22:  // EBU Tech. 3213-E
            self.init(red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077), white: Self.d65)
        default:
            return nil
        }
    }

    init(red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)) {
        self.red = (red.0, red.1)
        self.green = (green.0, green.1)
        self.blue = (blue.0, blue.1)
        self.white = (white.0, white.1)
    }
}

/// How a CICP transfer characteristic (H.273 table 3) is shown on an sRGB display.
enum CICPTransfer: Equatable {
    /// The sRGB curve. BT.709, BT.601 and BT.2020's transfer (1, 6, 14, 15) and SMPTE 240M's (7)
    /// are camera encodings (OETFs) whose display is BT.1886's gamma 2.4 in a dim studio; on a
    /// screen in a lit room sRGB's curve is their customary display, as browsers and libavif's
    /// encoder (which tags sRGB pictures 1/13 or 1/1 alike) treat them. So a photo tagged
    /// BT.709 primaries with any of these is sRGB and costs nothing.
    case sRGB
    /// A pure power law: gamma 2.2 (4), 2.8 (5), linear (8).
    case gamma(Double)
    /// HDR: SMPTE ST 2084 (PQ, 16) or ARIB STD-B67 (HLG, 18), mapped to SDR by `hdrToSDR`.
    case perceptualQuantizer
    case hybridLogGamma

    init?(code: UInt16) {
        switch code {
        case 1, 2, 6, 7, 13, 14, 15: self = .sRGB  // 2: unspecified, read as sRGB
        case 4: self = .gamma(2.2)
        case 5: self = .gamma(2.8)
        case 8: self = .gamma(1)
        case 16: self = .perceptualQuantizer
        case 18: self = .hybridLogGamma
        default: return nil
        }
    }

    /// The encoded value's linear light for an SDR display (0...1), as a table of `count` samples
    /// over 0...1 (HDR only; the SDR curves are parametric).
    func hdrTable(count: Int = 4096) -> [Float] {
        (0..<count).map { index in
            let signal = Double(index) / Double(count - 1)
            let nits = self == .perceptualQuantizer ? Self.pqNits(signal) : Self.hlgNits(signal)
            return Float(Self.hdrToSDR(nits: nits))
        }
    }

    // MARK: HDR to SDR
    //
    // A still photo in PQ or HLG is shown with one fixed, simple mapping, per channel: HDR reference
    // white (203 cd/m², ITU-R BT.2408) becomes SDR white's level before the knee, everything up to
    // `knee` of it keeps its relative light exactly, and the highlights above are compressed
    // smoothly (continuous in value and slope) towards white. No metadata (mastering display,
    // content light level) is read: the mapping is the same for every photo, so none is ever
    // darkened to make room for highlights it does not have beyond 10,000 cd/m² (PQ) or 1,000
    // (HLG). Per channel, saturated highlights lose a little saturation, as in most SDR renderings.

    /// HDR reference white, cd/m² (BT.2408).
    static let referenceWhite = 203.0
    /// Relative light (of reference white) up to which nothing is compressed.
    static let knee = 0.8

    /// SDR relative light (0...1) for `nits` of HDR display light.
    static func hdrToSDR(nits: Double) -> Double {
        let relative = max(0, nits / referenceWhite)
        guard relative > knee else { return relative }
        return knee + (1 - knee) * (1 - exp(-(relative - knee) / (1 - knee)))
    }

    /// SMPTE ST 2084's EOTF: display light in cd/m² for a PQ signal 0...1.
    static func pqNits(_ signal: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let power = pow(max(0, signal), 1 / m2)
        return 10_000 * pow(max(0, power - c1) / (c2 - c3 * power), 1 / m1)
    }

    /// ARIB STD-B67 / BT.2100 HLG: the inverse OETF, then the reference OOTF for a 1,000 cd/m²
    /// display (system gamma 1.2), per channel. The 75% signal, HLG's reference white, gives 203.
    static func hlgNits(_ signal: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let e = max(0, min(1, signal))
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return 1000 * pow(scene, 1.2)
    }
}
