/// What every decoder is told: the limits of SPEC §4 and how files are opened.
public struct DecodeOptions: Sendable {
    /// SPEC §4's default for photos.max_file_megabytes.
    public static let defaultMaxFileMegabytes = 200

    /// photos.max_megapixels: a larger image is refused from its header, before any pixel exists.
    public var maxMegapixels: Double
    /// photos.max_file_megabytes: a larger file is refused when it is opened, before it is read.
    public var maxFileMegabytes: Int
    public var files: PhotoFileOpener
    /// cache.megabytes, in bytes; nil: no budget (tools and tests that decode outside a kiosk).
    public var cacheBytes: Int?

    /// What a decode may hold besides its output (`ImageHeader.sourceBytes`): cache.megabytes, or
    /// when more, what a whole photo of photos.max_megapixels takes at `bytesPerAdmittedPixel`, so
    /// that every photo the megapixels admit and whose decode is as large as its pixels (a 12 MP
    /// HEIC: about 90 MB) shows whatever the cache, as before. Both come from the configuration,
    /// never from a file: a decode larger than its pixels (a PNG's rows as wide as 100,000,000
    /// pixels) is refused from its header, by the scan and by every decode, and the cache never
    /// grows for it. nil without a cache budget.
    public var memoryBudget: Int? {
        guard let cacheBytes else { return nil }
        let admitted = (maxMegapixels * 1e6 * Double(Self.bytesPerAdmittedPixel)).rounded(.down)
        return max(cacheBytes, admitted.isFinite && admitted > 0 ? Int(min(admitted, Double(Int.max / 2))) : 0)
    }

    /// What a decode may hold for each pixel photos.max_megapixels admits: the most any format's
    /// whole-image decode holds per pixel (a HEIC's planes, its RGB and the XRGB copy: about 7).
    public static let bytesPerAdmittedPixel = 8

    public init(maxMegapixels: Double = 100, maxFileMegabytes: Int = DecodeOptions.defaultMaxFileMegabytes,
                files: PhotoFileOpener = .linux, cacheMegabytes: Int? = nil) {
        self.maxMegapixels = maxMegapixels
        self.maxFileMegabytes = maxFileMegabytes
        self.files = files
        cacheBytes = cacheMegabytes.map { max(0, min($0, Int.max >> 21)) << 20 }
    }
}
