import CLcms2

/// An lcms tone curve, owned (freed once). A profile made from it keeps its own copy.
final class ToneCurve {
    let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        cmsFreeToneCurve(handle)
    }

    /// An ICC parametric curve (`type` 1: Y = X^g; 4: IEC 61966-2.1's shape, sRGB's).
    static func parametric(type: Int32, _ parameters: [Double], in context: LcmsContext) throws -> ToneCurve {
        ToneCurve(handle: try context.call("cmsBuildParametricToneCurve") {
            cmsBuildParametricToneCurve($0, type, parameters)
        })
    }

    /// A curve sampled at `values.count` evenly spaced inputs over 0...1.
    static func tabulated(_ values: [Float], in context: LcmsContext) throws -> ToneCurve {
        ToneCurve(handle: try context.call("cmsBuildTabulatedToneCurveFloat") {
            cmsBuildTabulatedToneCurveFloat($0, UInt32(values.count), values)
        })
    }

    /// The sRGB curve (IEC 61966-2.1).
    static func sRGB(in context: LcmsContext) throws -> ToneCurve {
        try parametric(type: 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045], in: context)
    }

    /// The inverse curve.
    func reversed(in context: LcmsContext) throws -> ToneCurve {
        ToneCurve(handle: try context.call("cmsReverseToneCurve") { _ in cmsReverseToneCurve(handle) })
    }

    func callAsFunction(_ x: Float) -> Float {
        cmsEvalToneCurveFloat(handle, x)
    }
}
