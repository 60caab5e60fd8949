import Foundation
import TestSupport
import Testing

/// systemd/vitrine.service, checked by systemd's own tool and for the settings SPEC §7 requires.
@Suite struct ServiceUnitTests {
    static let unitPath = TestPaths.root.appendingPathComponent("systemd/vitrine.service").path

    static func settings() throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for line in try String(contentsOfFile: unitPath, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), !text.hasPrefix("["), let eq = text.firstIndex(of: "=") else { continue }
            result[String(text[..<eq]), default: []].append(String(text[text.index(after: eq)...]))
        }
        return result
    }

    /// systemd-analyze verify with ExecStart pointing at the binary just built (verify checks it
    /// exists and is executable).
    static func verify(_ unitText: String) throws -> ProcessResult {
        let folder = try TestPaths.temporaryDirectory("unit")
        let unit = folder + "/vitrine.service"
        try unitText.replacingOccurrences(of: "/usr/local/bin/vitrine", with: TestPaths.executable)
            .write(toFile: unit, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try ProcessResult.run(["verify", unit], executable: "/usr/bin/systemd-analyze", mergingOutput: true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func systemdAnalyzeVerifyAcceptsTheUnit() throws {
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        let result = try Self.verify(text)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("vitrine.service"), "\(result.stderr)")
        // And it does notice a broken one, so a pass means something.
        let broken = try Self.verify(text.replacingOccurrences(of: "Type=notify", with: "Type=notifyy"))
        #expect(broken.stderr.contains("notifyy") || broken.status != 0)
    }

    @Test func theUnitIsANotifyServiceWithWatchdogRestartAndHardening() throws {
        let unit = try Self.settings()
        #expect(unit["Type"] == ["notify"])
        #expect(unit["WatchdogSec"] != nil)
        #expect(unit["Restart"] == ["on-failure"])
        #expect(unit["User"] == ["vitrine"])
        #expect(unit["SupplementaryGroups"]?.first?.split(separator: " ").sorted() == ["input", "video"])
        #expect(unit["NoNewPrivileges"] == ["yes"])
        #expect(unit["ProtectSystem"] == ["strict"])
        #expect(unit["ProtectHome"] == ["yes"])
        #expect(unit["PrivateTmp"] == ["yes"])
        #expect(unit["CacheDirectory"] == ["vitrine"])
        #expect(unit["ExecReload"]?.first?.contains("-HUP") == true)
        // The kiosk needs its devices: no PrivateDevices.
        #expect(unit["PrivateDevices"] == nil)
    }
}
