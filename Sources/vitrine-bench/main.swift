import Foundation

// `vitrine-bench startup [options]`: see StartupBenchmark.
do {
    try StartupBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("vitrine-bench: \(error)\n".utf8))
    exit(1)
}
