import Foundation
import TestSupport
import Testing

/// systemd/vitrine.service, checked by systemd's own tool and for the settings SPEC §7 requires.
@Suite struct ServiceUnitTests {
    static let unitPath = TestPaths.root.appendingPathComponent("systemd/vitrine.service").path

    static let remoteDropInPath = TestPaths.root.appendingPathComponent("systemd/remote-access.conf").path

    static func settings(path: String = unitPath) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), !text.hasPrefix("["), let eq = text.firstIndex(of: "=") else { continue }
            result[String(text[..<eq]), default: []].append(String(text[text.index(after: eq)...]))
        }
        return result
    }

    /// systemd-analyze verify with ExecStart pointing at the binary just built (verify checks it
    /// exists and is executable).
    static func verify(_ unitText: String, dropIn: String? = nil) throws -> ProcessResult {
        let folder = try TestPaths.temporaryDirectory("unit")
        let unit = folder + "/vitrine.service"
        try unitText.replacingOccurrences(of: "/usr/local/bin/vitrine", with: TestPaths.executable)
            .write(toFile: unit, atomically: true, encoding: .utf8)
        if let dropIn {
            try FileManager.default.createDirectory(atPath: unit + ".d", withIntermediateDirectories: true)
            try dropIn.write(toFile: unit + ".d/remote-access.conf", atomically: true, encoding: .utf8)
        }
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

    /// SPEC §9: the unit as shipped has no network; the drop-in opens exactly that, and systemd
    /// reads the pair without complaint.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func theRemoteDropInOpensTheNetworkAndNothingElse() throws {
        let unit = try Self.settings()
        #expect(unit["PrivateNetwork"] == ["yes"])
        #expect(unit["RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"])
        let dropIn = try Self.settings(path: Self.remoteDropInPath)
        #expect(Set(dropIn.keys) == ["PrivateNetwork", "RestrictAddressFamilies", "IPAddressDeny", "IPAddressAllow",
                                     "SystemCallFilter"])
        #expect(dropIn["SystemCallFilter"] == ["setpriority"])
        #expect(dropIn["PrivateNetwork"] == ["no"])
        #expect(dropIn["RestrictAddressFamilies"] == ["AF_INET AF_INET6"])
        #expect(dropIn["IPAddressDeny"] == ["any"])
        #expect(dropIn["IPAddressAllow"]?.contains("localhost") == true)
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        let dropInText = try String(contentsOfFile: Self.remoteDropInPath, encoding: .utf8)
        let result = try Self.verify(text, dropIn: dropInText)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("remote-access.conf"), "\(result.stderr)")
        let broken = try Self.verify(text, dropIn: dropInText.replacingOccurrences(of: "PrivateNetwork=no", with: "PrivateNetwork=maybe"))
        #expect(broken.stderr.contains("remote-access.conf") || broken.status != 0, "\(broken.stderr)")
    }

    @Test func theUnitIsANotifyServiceWithWatchdogRestartAndHardening() throws {
        let unit = try Self.settings()
        #expect(unit["Type"] == ["notify"])
        #expect(unit["WatchdogSec"] != nil)
        #expect(unit["Restart"] == ["on-failure"])
        // A configuration error (status 2) is not a restart loop.
        #expect(unit["RestartPreventExitStatus"] == ["2"])
        // Death by SIGHUP (one sent before the kiosk's first code could block it) is not a clean stop.
        #expect(unit["RestartForceExitStatus"] == ["SIGHUP"])
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
