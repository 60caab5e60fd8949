/// UIScrollView's resistance past an edge (SPEC §1): a finger `x` past the edge moves the content
/// (1 - 1 / (x * 0.55 / d + 1)) * d, which approaches but never reaches `d`.
public enum RubberBand {
    public static let coefficient = 0.55

    /// The shown overshoot for a finger overshoot `x` (either sign) and dimension `d`.
    public static func offset(_ x: Double, dimension d: Double) -> Double {
        guard d > 0 else { return 0 }
        let magnitude = (1 - 1 / (abs(x) * coefficient / d + 1)) * d
        return x < 0 ? -magnitude : magnitude
    }

    /// The finger overshoot that shows `offset`: the inverse of `offset(_:dimension:)`.
    public static func overshoot(forOffset offset: Double, dimension d: Double) -> Double {
        guard d > 0 else { return 0 }
        let f = min(abs(offset), d * 0.999_999)
        let magnitude = f / (d - f) * d / coefficient
        return offset < 0 ? -magnitude : magnitude
    }

    /// d(offset)/dx at finger overshoot `x`: how much of the finger's speed the content gets.
    public static func slope(_ x: Double, dimension d: Double) -> Double {
        guard d > 0 else { return 0 }
        let q = abs(x) * coefficient / d + 1
        return coefficient / (q * q)
    }

    /// `value` inside `lower...upper` unchanged, past either end rubber-banded.
    public static func clamp(_ value: Double, lower: Double, upper: Double, dimension d: Double) -> Double {
        if value < lower { return lower + offset(value - lower, dimension: d) }
        if value > upper { return upper + offset(value - upper, dimension: d) }
        return value
    }

    /// The inverse of `clamp(_:lower:upper:dimension:)`.
    public static func unclamp(_ shown: Double, lower: Double, upper: Double, dimension d: Double) -> Double {
        if shown < lower { return lower + overshoot(forOffset: shown - lower, dimension: d) }
        if shown > upper { return upper + overshoot(forOffset: shown - upper, dimension: d) }
        return shown
    }
}
