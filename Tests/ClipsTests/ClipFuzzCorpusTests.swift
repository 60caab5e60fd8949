import FuzzTargets
import TestSupport
import Testing

/// The `clip` fuzz target's committed seeds and regressions through its entry: the good seeds
/// decode their first frames, the bad ones are refused naming the file; none crashes or hangs.
@Suite struct ClipFuzzCorpusTests {
    @Test(arguments: FuzzCorpus.inputs("clip"))
    func clipReplays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { ClipFuzzTarget.run($0) }
        switch outcome {
        case .rejected(let reason), .undecodable(let reason):
            #expect(reason.contains("fuzz.mp4"), "\(reason)")
            #expect(input.isRegression || input.path.contains("/bad-"), "\(input.path): \(reason)")
        case .decoded(let codec, let frames):
            #expect(!codec.isEmpty)
            #expect(frames > 0 || input.isRegression || input.path.contains("/bad-"), "\(input.path)")
        }
    }
}
