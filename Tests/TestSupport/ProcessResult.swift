import Foundation

/// Runs a program (the real executable unless told otherwise) and collects what it printed.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// With `mergingOutput`, standard output and error go to one pipe, in the order written, and
    /// that text is both `stdout` and `stderr`.
    public static func run(_ arguments: [String], executable: String = TestPaths.executable,
                           environment: [String: String]? = nil, currentDirectory: String? = nil,
                           mergingOutput: Bool = false) throws -> ProcessResult {
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
