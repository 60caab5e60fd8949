import Testing
@testable import DRM

/// `display.card = "/dev/null"`: said as what the path is and what is expected, as a
/// configuration error, not as an ioctl failing on it.
@Suite struct NotACardTests {
    @Test func aNodeThatIsNoCardSaysWhatItIs() throws {
        #expect(throws: DRMError.notACard(path: "/dev/null", kind: "a character device 1:3")) {
            _ = try DRMCard(path: "/dev/null")
        }
        #expect(throws: DRMError.notACard(path: "/tmp", kind: "a directory")) { _ = try DRMCard(path: "/tmp") }
        let error = DRMError.notACard(path: "/dev/null", kind: "a character device 1:3")
        #expect(error.isNotACard)
        #expect(error.description == "/dev/null is a character device 1:3, not a DRM card; expected a card node such as "
            + "/dev/dri/card0 (vitrine displays lists them)")
        // Not there (yet): open's ENOENT, which run waits out.
        #expect(throws: DRMError.self) { _ = try DRMCard(path: "/dev/dri/card-none") }
        #expect(!DRMError.noDevices(directory: "/dev/dri").isNotACard)
    }
}
