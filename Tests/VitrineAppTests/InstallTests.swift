import Foundation
import TestSupport
import Testing

/// `make install` into a staging folder, as on a kiosk: files in place, an edited config kept.
@Suite struct InstallTests {
    func makeInstall(_ destination: String) throws -> ProcessResult {
        try ProcessResult.run(["-C", TestPaths.root.path, "install", "DESTDIR=\(destination)", "BINARY=\(TestPaths.executable)"],
                              executable: "/usr/bin/make", mergingOutput: true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
    func installPutsEverythingInPlaceAndKeepsAnEditedConfig() throws {
        let root = try TestPaths.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = try makeInstall(root)
        #expect(first.status == 0, "\(first.stdout)")
        let files = FileManager.default
        #expect(files.isExecutableFile(atPath: root + "/usr/local/bin/vitrine"))
        #expect(files.fileExists(atPath: root + "/etc/systemd/system/vitrine.service"))
        #expect(files.fileExists(atPath: root + "/etc/vitrine/vitrine.toml.example"))
        let config = root + "/etc/vitrine/vitrine.toml"
        #expect(try String(contentsOfFile: config, encoding: .utf8) == String(contentsOfFile: TestPaths.exampleConfig, encoding: .utf8))
        #expect(try files.contentsOfDirectory(atPath: root + "/usr/local/share/vitrine/samples").filter { $0.hasSuffix(".jpg") }.count >= 10)

        // The integrator edits the config; installing again (an upgrade) leaves it alone.
        let edited = "[grid]\ncolumns = 3\n"
        try edited.write(toFile: config, atomically: true, encoding: .utf8)
        let second = try makeInstall(root)
        #expect(second.status == 0, "\(second.stdout)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)
    }
}
