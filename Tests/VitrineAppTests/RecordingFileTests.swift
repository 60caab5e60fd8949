import Foundation
import Linux
import Testing
import Touch
@testable import VitrineApp

/// Recordings read from files for `simulate --replay`, through the Linux layer.
@Suite struct RecordingFileTests {
    static func parsed(_ name: String) throws -> EvemuRecording {
        try EvemuRecording.parse(text: String(contentsOfFile: TestPaths.recording(name), encoding: .utf8))
    }

    @Test func loadsASingleFileRecording() throws {
        let recording = try EvemuRecording.load(path: TestPaths.recording("atmel_maxtouch.2-fingers-touch-release.evemu"))
        #expect(recording == (try Self.parsed("atmel_maxtouch.2-fingers-touch-release.evemu")))
    }

    @Test func findsTheDescriptionOfASplitRecording() throws {
        let recording = try EvemuRecording.load(path: TestPaths.recording("wacom_isdv4_e6_finger.2fg-tap.events"))
        let description = try String(contentsOfFile: TestPaths.recording("wacom_isdv4_e6_finger.desc"), encoding: .utf8)
        let events = try String(contentsOfFile: TestPaths.recording("wacom_isdv4_e6_finger.2fg-tap.events"), encoding: .utf8)
        #expect(recording == (try EvemuRecording.parse(description: description, events: events)))
        let egalax = try EvemuRecording.load(path: TestPaths.recording("egalax_usb_touchcontroller_resistive.events"))
        #expect(egalax.device.name == "eGalax Inc. USB TouchController")
        let named = try EvemuRecording.load(path: TestPaths.recording("wacom_isdv4_e6_finger.desc") + ","
                                            + TestPaths.recording("wacom_isdv4_e6_finger.2fg-tap.events"))
        #expect(named == recording)
    }

    @Test func reportsAMissingFile() throws {
        let error = try #require(throws: SystemError.self) {
            try EvemuRecording.load(path: "/nonexistent/panel.evemu")
        }
        #expect(error.path == "/nonexistent/panel.evemu")
        #expect(error.errno == .noSuchFileOrDirectory)
    }

    @Test func aFIFONamedAsTheRecordingIsRefusedWithoutBlocking() throws {
        let folder = try TestPaths.temporaryDirectory("recording-fifo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/panel.evemu"
        #expect(mkfifo(path, 0o600) == 0)
        let error = try #require(throws: AppError.self) { try ReplayInput.load(path) }
        #expect(error.description == "cannot read the recording: open \(path): not a regular file (a FIFO)")
        #expect(error.exitCode == 2)
    }
}
