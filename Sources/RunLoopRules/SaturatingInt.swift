extension Int {
    /// `value` rounded toward minus infinity and clamped to Int's range; NaN is 0. For times and
    /// counts computed from the clock and the display's refresh rate, which the kernel gives and a
    /// trap must never follow from.
    init(flooringSaturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        // 2^63 is the first Double past Int.max; everything below it converts exactly.
        let limit = 9_223_372_036_854_775_808.0
        self = value >= limit ? .max : value < -limit ? .min : Int(value.rounded(.down))
    }
}
