import Foundation

/// Files of the repository the tests use, found from this file so that no test needs resources in
/// its bundle: the sample photos, the example config, the test JPEGs and touch recordings kept
/// beside the tests that began with them, and the built `vitrine` executable.
public enum TestPaths {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    public static let samplePhotos = root.appendingPathComponent("Samples/photos").path
    public static let exampleConfig = root.appendingPathComponent("Config/vitrine.toml").path
    /// The JPEGs copied from the shared corpus (see its ATTRIBUTION.md).
    public static let jpegs = root.appendingPathComponent("Tests/PhotosTests/JPEGs").path
    /// The touch recordings (see its ATTRIBUTION.md).
    public static let recordings = root.appendingPathComponent("Tests/TouchTests/Recordings").path

    public static func recording(_ name: String) -> String {
        (recordings as NSString).appendingPathComponent(name)
    }

    /// The executable `swift build --build-tests` made next to the test bundle.
    public static var executable: String {
        let bundle = Bundle.main.bundleURL
        for folder in [bundle.deletingLastPathComponent(), bundle] {
            let candidate = folder.appendingPathComponent("vitrine").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/vitrine").path
    }

    /// A fresh folder `vitrine-<name>-…` in the temporary directory; the caller removes it.
    public static func temporaryDirectory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "vitrine-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// A fresh temporary folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ name: String = "test") throws {
        path = try TestPaths.temporaryDirectory(name)
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
