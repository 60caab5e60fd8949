import Linux

/// How Photos opens a photo's file: through the Linux layer's `RegularFile`, the one safe reader.
/// A seam for tests, which count the opens (a photo is opened once by the scan and once per decode).
public struct PhotoFileOpener: Sendable {
    public let open: @Sendable (String) throws(SystemError) -> RegularFile

    public init(_ open: @escaping @Sendable (String) throws(SystemError) -> RegularFile) {
        self.open = open
    }

    public static let linux = PhotoFileOpener { path throws(SystemError) in try RegularFile(path: path) }
}
