/// Everything wrong with a config file and its drop-ins. Its description has one line per problem,
/// in the order the files are read and each file's order, in the compiler's `file:line:column:
/// message` form.
public struct ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The file cannot be read, or is not UTF-8 text.
        case unreadable
        /// Not valid TOML.
        case syntax
        case unknownTable
        case unknownKey
        case wrongType
        case outOfRange
        /// A value outside a fixed set (an enumeration, the rotations).
        case notOneOf
        /// A string of the wrong shape (a colour, a mode, a path).
        case badFormat
        /// An array of the wrong length (the calibration matrix).
        case wrongCount
    }

    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public var kind: Kind
        /// The drop-in the problem is in; nil: the main file (`ConfigError.path`).
        public var file: String?
        /// 1-based; nil when the problem has no place in the file.
        public var line: Int?
        public var column: Int?
        /// The key as `table.key` (or the table's name for a table), when the problem is about one.
        public var key: String?
        /// The closest known key or table, as it should be written, for unknown ones.
        public var suggestion: String?
        /// What is wrong and what is expected, without the location.
        public var message: String

        public init(kind: Kind, line: Int? = nil, column: Int? = nil, file: String? = nil, key: String? = nil,
                    suggestion: String? = nil, message: String) {
            self.kind = kind
            self.file = file
            self.line = line
            self.column = column
            self.key = key
            self.suggestion = suggestion
            self.message = message
        }

        public var description: String { message }
    }

    public var path: String
    public var problems: [Problem]

    public init(path: String, problems: [Problem]) {
        self.path = path
        self.problems = problems
    }

    /// How many problems the description lists; the rest are counted. A file of 85,000 unknown
    /// keys (a hostile or generated one) is reported in a screenful, and logged on SIGHUP as a
    /// bounded line, not 4 MB.
    public static let listedProblems = 20

    /// The first `listedProblems` problems, one line each, then "…and N more problems" when there
    /// are more.
    public var description: String {
        var lines = problems.prefix(Self.listedProblems).map { problem in
            var location = problem.file ?? path
            if let line = problem.line {
                location += ":\(line)"
                if let column = problem.column { location += ":\(column)" }
            }
            return "\(location): \(problem.message)"
        }
        let unlisted = problems.count - lines.count
        if unlisted > 0 { lines.append("…and \(unlisted) more problem\(unlisted == 1 ? "" : "s") (\(problems.count) in all)") }
        return lines.joined(separator: "\n")
    }
}
