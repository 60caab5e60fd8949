/// Whole numbers from Doubles that cannot trap. `Int(_: Double)` traps on NaN, an infinity and
/// anything past 2^63, and such a Double follows from outside input in a few steps: a calibration
/// matrix of 1e308, a touch 1 ns after the last one (a velocity of 1e12 px/s), a clock or a file
/// time far out. Every conversion of such a value goes through here (issue #22).
extension Int {
    /// `value` rounded toward zero, as `Int(_:)` rounds, and clamped to Int's range; NaN is 0.
    public init(saturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        // 2^63 is the first Double past Int.max; everything below it converts exactly.
        let limit = 9_223_372_036_854_775_808.0
        self = value >= limit ? .max : value < -limit ? .min : Int(value)
    }

    /// `value` rounded toward minus infinity and clamped to Int's range; NaN is 0. For times and
    /// counts computed from the clock and the display's refresh rate, which the kernel gives.
    public init(flooringSaturating value: Double) {
        self.init(saturating: value.rounded(.down))
    }
}

extension Int {
    /// A pixel coordinate: `value` rounded toward zero and clamped to ±2^31, far outside any
    /// screen, so that the difference of two of them (a width) cannot overflow either; NaN is 0.
    public init(pixel value: Double) {
        self.init(saturating: Swift.min(Swift.max(value, -Self.pixelLimit), Self.pixelLimit))
    }

    private static let pixelLimit = 2_147_483_648.0
}

extension Int32 {
    /// `value` rounded toward zero and clamped to Int32's range; NaN is 0.
    public init(saturating value: Double) {
        self.init(clamping: Int(saturating: value))
    }
}

extension Double {
    /// The value within `range`; NaN is the range's lower bound (a coordinate that is not a
    /// number is put at the edge it would be clamped to first, never passed on).
    public func bounded(by range: ClosedRange<Double>) -> Double {
        isNaN ? range.lowerBound : Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
