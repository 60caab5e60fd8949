import ConfigFile
import Foundation
import Linux
import Testing
import TestSupport

/// A kiosk reloads its config at every SIGHUP for months: a load must give back all it allocates.
/// TOMLKit 0.6, the parser before toml++ through CTOMLShim, leaked about 12 kB per load of the
/// example config (LebJe/TOMLKit#26): 4.8 MB per round here.
@Suite struct ConfigReloadMemoryTests {
    @Test func loadingTheExampleConfigAgainAndAgainKeepsNothing() throws {
        let text = try String(contentsOfFile: TestPaths.exampleConfig, encoding: .utf8)
        _ = try ConfigLoader.parse(text, path: "vitrine.toml")
        // Other suites allocate and free on other threads meanwhile, so a round may look larger or
        // smaller than its own share; a leak grows every round, so the smallest growth tells.
        var growths: [Int] = []
        for _ in 0..<5 {
            let before = ProcessHeap.bytesInUse()
            for _ in 0..<400 { _ = try ConfigLoader.parse(text, path: "vitrine.toml") }
            growths.append(ProcessHeap.bytesInUse() - before)
        }
        #expect(growths.min()! < 2 << 20, "heap in use grew by \(growths.map { "\($0 >> 10) kB" }) over 5 rounds of 400 loads")
    }
}
