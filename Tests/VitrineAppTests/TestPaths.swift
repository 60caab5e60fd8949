import Foundation

/// Files of the repository the tests use: the bundled sample photos, the real touch recordings
/// kept with the Touch tests, and the built `vitrine` executable.
enum TestPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let samplePhotos = root.appendingPathComponent("Samples/photos").path
    static func recording(_ name: String) -> String {
        root.appendingPathComponent("Tests/TouchTests/Recordings/\(name)").path
    }
    static let exampleConfig = root.appendingPathComponent("Config/vitrine.toml").path

    /// The executable `swift build --build-tests` made next to the test bundle.
    static var executable: String {
        let bundle = Bundle.main.bundleURL
        for folder in [bundle.deletingLastPathComponent(), bundle] {
            let candidate = folder.appendingPathComponent("vitrine").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/vitrine").path
    }

    static func temporaryDirectory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "vitrine-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Runs a program (the real executable unless told otherwise) and collects what it printed.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// With `mergingOutput`, standard output and error go to one pipe, in the order written, and
    /// that text is both `stdout` and `stderr`.
    static func run(_ arguments: [String], executable: String = TestPaths.executable, environment: [String: String]? = nil,
                    currentDirectory: String? = nil, mergingOutput: Bool = false) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe(), err = mergingOutput ? out : Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errText = mergingOutput ? outText : String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: outText, stderr: errText)
    }
}
