/// A DCT-domain scaling factor num/denom that the JPEG decoder applies while decoding.
public struct ScalingFactor: Hashable, Sendable, CustomStringConvertible {
    public let num: Int
    public let denom: Int

    public init(num: Int, denom: Int) {
        self.num = num
        self.denom = denom
    }

    public static let one = ScalingFactor(num: 1, denom: 1)

    /// The decoder's output length for an input length (TJSCALED: rounded up).
    public func scale(_ length: Int) -> Int {
        (length * num + denom - 1) / denom
    }

    public func scale(_ size: ImageSize) -> ImageSize {
        ImageSize(width: scale(size.width), height: scale(size.height))
    }

    /// The factor, among `factors`, whose output is the smallest that still covers `target` in both
    /// axes (sizes in the same orientation). Only reductions are considered: enlarging is left to the
    /// resampler, so a small photo never costs more memory than its own size. With no covering
    /// factor, 1/1.
    public static func smallestCovering(_ target: ImageSize, from image: ImageSize,
                                        among factors: [ScalingFactor]) -> ScalingFactor {
        let reductions = factors.filter { $0.num > 0 && $0.denom > 0 && $0.num <= $0.denom }
            .sorted { $0.num * $1.denom < $1.num * $0.denom }
        for factor in reductions {
            let scaled = factor.scale(image)
            if scaled.width >= target.width, scaled.height >= target.height { return factor }
        }
        return .one
    }

    public var description: String { "\(num)/\(denom)" }
}
