import FuzzTargets
import Testing
import TestSupport

/// The `evemu` fuzz target's committed corpus and regressions, through the fuzzer's own entry:
/// none crashes, and an input that is refused says why, with its line.
@Suite struct EvemuFuzzCorpusTests {
    @Test func corpusIsThere() {
        #expect(FuzzCorpus.inputs("evemu").filter { !$0.isRegression }.count >= 5)
    }

    @Test(arguments: FuzzCorpus.inputs("evemu"))
    func replays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { EvemuFuzzTarget.run($0) }
        switch outcome {
        case .rejected(let reason):
            #expect(reason.hasPrefix("evemu line "), "\(reason)")
        case .unusableDevice(let reason):
            #expect(!reason.isEmpty)
        case .decoded:
            break
        }
    }
}
