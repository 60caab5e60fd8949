/// A failure the user can act on; `description` is the one line printed before exiting.
public struct AppError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// The process exit status: 2 for configuration and usage errors (SPEC §5), 1 otherwise.
    public var exitCode: Int32

    public init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }
}
