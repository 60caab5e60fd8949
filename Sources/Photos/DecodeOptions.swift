/// What every decoder is told: the limits of SPEC §4 and how files are opened.
public struct DecodeOptions: Sendable {
    /// SPEC §4's default for photos.max_file_megabytes.
    public static let defaultMaxFileMegabytes = 200

    /// photos.max_megapixels: a larger image is refused from its header, before any pixel exists.
    public var maxMegapixels: Double
    /// photos.max_file_megabytes: a larger file is refused when it is opened, before it is read.
    public var maxFileMegabytes: Int
    public var files: PhotoFileOpener

    public init(maxMegapixels: Double = 100, maxFileMegabytes: Int = DecodeOptions.defaultMaxFileMegabytes,
                files: PhotoFileOpener = .linux) {
        self.maxMegapixels = maxMegapixels
        self.maxFileMegabytes = maxFileMegabytes
        self.files = files
    }
}
