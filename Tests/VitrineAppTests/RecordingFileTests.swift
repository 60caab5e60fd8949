import Foundation
import Linux
import TestSupport
import Testing
import Touch
@testable import VitrineApp

/// Recordings read from files for `simulate --replay`, through the Linux layer.
@Suite struct RecordingFileTests {
    @Test func loadsASingleFileRecording() throws {
        let recording = try EvemuRecording.load(path: TestPaths.recording("atmel_maxtouch.2-fingers-touch-release.evemu"))
        #expect(recording == (try Recordings.load("atmel_maxtouch.2-fingers-touch-release.evemu")))
    }

    @Test func findsTheDescriptionOfASplitRecording() throws {
        let recording = try EvemuRecording.load(path: TestPaths.recording("wacom_isdv4_e6_finger.2fg-tap.events"))
        #expect(recording == (try Recordings.load(device: "wacom_isdv4_e6_finger", events: "2fg-tap")))
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
        let folder = try TemporaryDirectory("recording-fifo")
        defer { folder.remove() }
        let path = folder.file("panel.evemu")
        #expect(mkfifo(path, 0o600) == 0)
        let error = try #require(throws: AppError.self) { try ReplayInput.load(path) }
        #expect(error.description == "cannot read the recording: open \(path): not a regular file (a FIFO)")
        #expect(error.exitCode == 2)
    }
}
