import FuzzTargets
import Testing
import TestSupport

/// The `config` fuzz target's committed corpus and regressions, through the fuzzer's own entry:
/// none crashes, and a refused file names the file and a line for every problem.
@Suite struct ConfigFuzzCorpusTests {
    @Test func corpusIsThere() {
        #expect(FuzzCorpus.inputs("config").contains { $0.path.hasSuffix("/vitrine.toml") })
    }

    @Test(arguments: FuzzCorpus.inputs("config"))
    func replays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { ConfigFuzzTarget.run($0) }
        if case .rejected(let message) = outcome {
            #expect(!message.isEmpty)
            #expect(message.contains("fuzz.toml"), "\(message)")
        }
        if input.path.hasSuffix("/vitrine.toml") {
            #expect(outcome == .loaded)
        }
    }
}
