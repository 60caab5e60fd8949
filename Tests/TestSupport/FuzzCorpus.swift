import Foundation

/// The committed inputs of a fuzz target (Fuzz/README.md): `Fuzz/Regressions/TARGET`, every input
/// that once crashed, hung or ran out of memory, then the minimised seed corpus
/// `Fuzz/Corpus/TARGET`. The tests feed each through the target's entry, as the fuzzer does.
public enum FuzzCorpus {
    public struct Input: Sendable, CustomStringConvertible {
        /// Relative to the repository, e.g. `Fuzz/Regressions/evemu/crash-…`.
        public let path: String
        public let bytes: [UInt8]
        public var isRegression: Bool { path.hasPrefix("Fuzz/Regressions/") }
        public var description: String { path }
    }

    public static func inputs(_ target: String) -> [Input] {
        ["Fuzz/Regressions/\(target)", "Fuzz/Corpus/\(target)"].flatMap { folder -> [Input] in
            let absolute = TestPaths.root.appendingPathComponent(folder).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
                FileManager.default.contents(atPath: (absolute as NSString).appendingPathComponent(name))
                    .map { Input(path: "\(folder)/\(name)", bytes: Array($0)) }
            }
        }
    }

    /// The bytes as the fuzzer passes them: a pointer and a length.
    public static func withBuffer<T>(_ input: Input, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        input.bytes.withUnsafeBytes(body)
    }
}
