import Testing
@testable import DRM

@Suite struct ModeRequestTests {
    @Test func sizeAloneMatchesAnyRefresh() throws {
        let request = try ModeRequest(parsing: "1920x1080")
        #expect(request == ModeRequest(width: 1920, height: 1080, refresh: nil))
        #expect(request.description == "1920x1080")
    }

    @Test func sizeWithRefresh() throws {
        #expect(try ModeRequest(parsing: "1280x800@60") == ModeRequest(width: 1280, height: 800, refresh: 60))
        #expect(try ModeRequest(parsing: "1920x1080@59.94").refresh == 59.94)
        #expect(try ModeRequest(parsing: "1920x1080@59.94").description == "1920x1080@59.94")
    }

    @Test(arguments: ["", "1920", "1920x", "x1080", "1920x1080@", "@60", "0x1080", "1920x-1", "1920x1080@0",
                      "1920x1080@60@60", "1920X1080", "wide x tall", "1920x1080@inf", "1920x1080@nan"])
    func malformedTextIsAnErrorThatShowsTheForm(_ text: String) {
        #expect(throws: DRMError.invalidModeString(text)) { try ModeRequest(parsing: text) }
        #expect(DRMError.invalidModeString(text).description.contains("WIDTHxHEIGHT@HZ"))
    }

    @Test func refreshWithinHalfAHertzMatches() throws {
        let sixty = try ModeRequest(parsing: "1920x1080@60")
        #expect(sixty.matches(DisplayMode(width: 1920, height: 1080, refreshRate: 59.94)))
        #expect(sixty.matches(DisplayMode(width: 1920, height: 1080, refreshRate: 60)))
        #expect(!sixty.matches(DisplayMode(width: 1920, height: 1080, refreshRate: 50)))
        #expect(!sixty.matches(DisplayMode(width: 1280, height: 720, refreshRate: 60)))
    }
}
