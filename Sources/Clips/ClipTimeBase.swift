import CFFmpeg

/// A stream's time base (seconds per tick) from the file, checked: a zero or negative numerator or
/// denominator is no time base (`isValid` false, every time 0). Times are computed in Double, so
/// that no timestamp from the file reaches an integer operation that overflows.
struct ClipTimeBase: Equatable {
    let numerator: Int32
    let denominator: Int32

    init(_ rational: AVRational) {
        numerator = rational.num
        denominator = rational.den
    }

    var isValid: Bool { numerator > 0 && denominator > 0 }

    /// `ticks` in seconds; 0 without a valid time base.
    func seconds(_ ticks: Int64) -> Double {
        isValid ? Double(ticks) * Double(numerator) / Double(denominator) : 0
    }

    /// The rational as a number, or 0 where it is none (0/0, negative, infinite): a frame rate.
    static func value(_ rational: AVRational) -> Double {
        guard rational.num > 0, rational.den > 0 else { return 0 }
        return Double(rational.num) / Double(rational.den)
    }
}
