import FuzzTargets
import Testing
import TestSupport

/// The `http` fuzz target's committed corpus and regressions through the fuzzer's own entry: none
/// crashes, and the seeds that are well-formed requests get the answers the server gives them.
@Suite(.serialized) struct HTTPFuzzCorpusTests {
    @Test func seedsAreAnsweredAsTheServerAnswers() throws {
        let inputs = FuzzCorpus.inputs("http").filter { !$0.isRegression }
        func outcome(_ name: String) throws -> (statuses: [Int], closes: Bool) {
            let input = try #require(inputs.first { $0.path.hasSuffix("/" + name) }, "seed \(name)")
            let outcome = FuzzCorpus.withBuffer(input) { HTTPFuzzTarget.run($0) }
            return (outcome.statuses, outcome.closes)
        }
        #expect(try outcome("get-status").statuses == [200])
        #expect(try outcome("get-page").statuses == [200])
        #expect(try outcome("get-openapi").statuses == [200])
        #expect(try outcome("get-status-http10") == ([200], true))
        #expect(try outcome("pipelined-query") == ([200, 200], true))
        #expect(try outcome("screenshot-token").statuses == [200])
        #expect(try outcome("control-open").statuses == [202])
        #expect(try outcome("control-next-chunked").statuses == [202])
        #expect(try outcome("control-wrong-token").statuses == [401])
        #expect(try outcome("delete-metrics").statuses == [405])
        #expect(try outcome("head-status-then-get") == ([200, 200], true))
    }

    @Test(arguments: FuzzCorpus.inputs("http"))
    func replays(_ input: FuzzCorpus.Input) {
        let outcome = FuzzCorpus.withBuffer(input) { HTTPFuzzTarget.run($0) }
        #expect(outcome.statuses.allSatisfy { (200..<600).contains($0) })
    }
}
