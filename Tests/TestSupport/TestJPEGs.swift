import Foundation
import Photos

/// The test JPEGs copied from the shared corpus (see Tests/PhotosTests/JPEGs/ATTRIBUTION.md).
public enum TestJPEGs {
    public static let root = TestPaths.jpegs

    public static func path(_ relative: String) -> String {
        (root as NSString).appendingPathComponent(relative)
    }

    /// The photos in `folder` (relative to the root), sorted, as paths relative to the root.
    public static func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
        return names.filter(PhotoLibrary.isPhotoName).sorted().map { "\(folder)/\($0)" }
    }
}
