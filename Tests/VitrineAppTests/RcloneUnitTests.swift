import Config
import Foundation
import TestSupport
import Testing

/// systemd/vitrine-rclone.service and .timer, the example pair the package ships (README, "Remote
/// sources (rclone)"): systemd's own tool reads them without a complaint, and the service mirrors
/// into the folder the kiosk shows.
@Suite struct RcloneUnitTests {
    static let servicePath = TestPaths.root.appendingPathComponent("systemd/vitrine-rclone.service").path
    static let timerPath = TestPaths.root.appendingPathComponent("systemd/vitrine-rclone.timer").path

    /// systemd-analyze verify of the pair in one folder (the timer names the service); rclone's
    /// path replaced by /bin/true where rclone is not installed (verify checks it is executable).
    static func verify(service: String, timer: String) throws -> ProcessResult {
        let folder = try TestPaths.temporaryDirectory("rclone-units")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rclone = FileManager.default.isExecutableFile(atPath: "/usr/bin/rclone") ? "/usr/bin/rclone" : "/bin/true"
        try service.replacingOccurrences(of: "/usr/bin/rclone", with: rclone)
            .write(toFile: folder + "/vitrine-rclone.service", atomically: true, encoding: .utf8)
        try timer.write(toFile: folder + "/vitrine-rclone.timer", atomically: true, encoding: .utf8)
        return try ProcessResult.run(["verify", folder + "/vitrine-rclone.service", folder + "/vitrine-rclone.timer"],
                                     executable: "/usr/bin/systemd-analyze", mergingOutput: true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func systemdAnalyzeVerifyAcceptsTheServiceAndTheTimer() throws {
        let service = try String(contentsOfFile: Self.servicePath, encoding: .utf8)
        let timer = try String(contentsOfFile: Self.timerPath, encoding: .utf8)
        let result = try Self.verify(service: service, timer: timer)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("vitrine-rclone"), "\(result.stderr)")
        // It notices a broken one, so a pass means something.
        let broken = try Self.verify(service: service.replacingOccurrences(of: "Type=oneshot", with: "Type=oneshott"),
                                     timer: timer.replacingOccurrences(of: "OnBootSec=2min", with: "OnBootSec=soon"))
        #expect(broken.stderr.contains("oneshott") && broken.stderr.contains("soon"), "\(broken.stderr)")
    }

    /// A oneshot the timer starts (never enabled itself), writing only the photo folder, which is
    /// the kiosk's own default `photos.directory`; `rclone sync` of the remote `photos:` with the
    /// config in /etc/vitrine.
    @Test func theServiceSyncsIntoTheKiosksPhotoFolderAndTheTimerStartsIt() throws {
        let service = try ServiceUnitTests.settings(path: Self.servicePath)
        let timer = try ServiceUnitTests.settings(path: Self.timerPath)
        let folder = Settings().photos.directory
        #expect(service["Type"] == ["oneshot"])
        #expect(service["WantedBy"] == nil, "the timer starts it")
        #expect(service["Environment"]?.contains("VITRINE_PHOTOS=\(folder)") == true)
        #expect(service["Environment"]?.contains("VITRINE_RCLONE_SOURCE=photos:") == true)
        #expect(service["ReadWritePaths"] == [folder])
        #expect(service["ProtectSystem"] == ["strict"])
        #expect(service["CapabilityBoundingSet"] == [""])
        let start = service["ExecStart"]?.first ?? ""
        #expect(start.hasPrefix("/usr/bin/rclone sync ${VITRINE_RCLONE_SOURCE} ${VITRINE_PHOTOS}"), "\(start)")
        #expect(try String(contentsOfFile: TestPaths.exampleConfig, encoding: .utf8).contains("directory = \"\(folder)\""))
        #expect(timer["WantedBy"] == ["timers.target"])
        #expect(timer["OnBootSec"] != nil && timer["OnUnitInactiveSec"] != nil)
    }
}
