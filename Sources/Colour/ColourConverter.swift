import Blitter

/// Converts decoded photos to sRGB in place, from the colour description their file carries
/// (SPEC §11): an embedded ICC profile, or CICP code points (HEIF/AVIF nclx). The display is taken
/// to be sRGB, as a kiosk's screen nearly always is.
///
/// What costs nothing: no description leaves the pixels untouched without a look; a description
/// that is sRGB (an sRGB ICC profile, recognised by its colorants and curves; CICP BT.709/sRGB or
/// unspecified primaries with an SDR transfer read as sRGB's, see `CICPTransfer.sRGB`) leaves them
/// untouched too, and the decision is cached with the transforms, so the second sRGB photo costs a
/// hash of its profile. Every other description becomes an lcms transform (`ColourTransform`: its
/// intent and why), made once and kept for the next photos with the same description: the last
/// `capacity` descriptions are kept, least recently used dropped first, with what they came to
/// (sRGB, a transform, or why they cannot be used).
///
/// CICP's matrix coefficients and range are the decoder's business (they turn YCbCr into the RGB
/// this converts) and are not read here.
///
/// One converter per decode worker, like the decoders: lcms's transforms keep a one-pixel cache
/// and are not thread-safe unless made with cmsFLAGS_NOCACHE, and a shared cache would need a lock
/// on every photo; a converter per worker needs neither, at the cost of each worker making its own
/// transform for a new profile once (a millisecond or so).
public final class ColourConverter {
    public static let defaultCapacity = 4
    /// A profile larger than this is neither looked up nor kept (hashing and holding megabytes
    /// per photo would cost more than remaking its transform); real camera and phone profiles
    /// are a few kilobytes.
    public static let largestCachedProfile = 1 << 20

    /// What a converter did since it was made (tests and the benchmark).
    public struct Statistics: Equatable, Sendable {
        /// Bitmaps whose pixels were converted.
        public var converted = 0
        /// Bitmaps with a description that turned out to be sRGB: untouched.
        public var untouched = 0
        /// Descriptions found in the cache / made (profile read, transform built).
        public var cacheHits = 0
        public var cacheMisses = 0

        public init(converted: Int = 0, untouched: Int = 0, cacheHits: Int = 0, cacheMisses: Int = 0) {
            self.converted = converted
            self.untouched = untouched
            self.cacheHits = cacheHits
            self.cacheMisses = cacheMisses
        }
    }

    public private(set) var statistics = Statistics()

    /// What a description comes to.
    enum Plan {
        case identity
        case transform(ColourTransform)
        case unusable(ColourError)
    }

    private let context: LcmsContext
    private let sRGB: ColourProfile
    private let sRGBReference: SRGBReference
    private var plans: RecentlyUsed<ColourDescription, Plan>

    public init(capacity: Int = ColourConverter.defaultCapacity) throws {
        context = try LcmsContext()
        sRGB = try ColourProfile.sRGB(in: context)
        sRGBReference = try SRGBReference(sRGB, in: context)
        plans = RecentlyUsed(capacity: capacity)
    }

    /// Converts `bitmap` from `description` to sRGB, in place; true when its pixels changed. No
    /// description, or one that is sRGB, leaves it untouched. A description that cannot be used
    /// throws its `ColourError`, the bitmap untouched: the photo shows unconverted, with a warning.
    @discardableResult
    public func convertToSRGB(_ bitmap: inout Bitmap, from description: ColourDescription?) throws -> Bool {
        guard let description else { return false }
        switch plan(for: description) {
        case .identity:
            statistics.untouched += 1
            return false
        case let .transform(transform):
            transform.apply(to: &bitmap)
            statistics.converted += 1
            return true
        case let .unusable(error):
            throw error
        }
    }

    /// True when `description` needs no conversion; throws when it cannot be used.
    public func isSRGB(_ description: ColourDescription) throws -> Bool {
        switch plan(for: description) {
        case .identity: return true
        case .transform: return false
        case let .unusable(error): throw error
        }
    }

    /// The cached plan for `description`, or a new one (cached when the description is small).
    func plan(for description: ColourDescription) -> Plan {
        let cacheable = Self.isCacheable(description)
        if cacheable, let plan = plans.value(for: description) {
            statistics.cacheHits += 1
            return plan
        }
        statistics.cacheMisses += 1
        let plan: Plan
        do {
            plan = try makePlan(description)
        } catch let error as ColourError {
            plan = .unusable(error)
        } catch {
            plan = .unusable(ColourError("\(error)"))
        }
        if cacheable { plans.insert(plan, for: description) }
        return plan
    }

    static func isCacheable(_ description: ColourDescription) -> Bool {
        if case let .icc(bytes) = description { return bytes.count <= largestCachedProfile }
        return true
    }

    private func makePlan(_ description: ColourDescription) throws -> Plan {
        switch description {
        case let .icc(bytes):
            let profile = try ColourProfile.icc(bytes, in: context)
            if profile.isSRGB(sRGBReference) { return .identity }
            return .transform(try ColourTransform(from: profile, to: sRGB, in: context))
        case let .cicp(primariesCode, transferCode, _, _):
            guard let transfer = CICPTransfer(code: transferCode) else {
                throw ColourError("CICP transfer characteristics \(transferCode) are not supported")
            }
            let primariesCode = primariesCode == 2 ? 1 : primariesCode  // unspecified: read as sRGB's
            if primariesCode == 1, transfer == .sRGB { return .identity }
            guard let primaries = CICPPrimaries(code: primariesCode) else {
                throw ColourError("CICP colour primaries \(primariesCode) are not supported")
            }
            let curve: ToneCurve
            switch transfer {
            case .sRGB: curve = try ToneCurve.sRGB(in: context)
            case let .gamma(gamma): curve = try ToneCurve.parametric(type: 1, [gamma], in: context)
            case .perceptualQuantizer, .hybridLogGamma: curve = try ToneCurve.tabulated(transfer.hdrTable(), in: context)
            }
            let profile = try ColourProfile.rgb(primaries: primaries, curve: curve, in: context)
            return .transform(try ColourTransform(from: profile, to: sRGB, in: context))
        }
    }
}
