import Config
import Testing
@testable import ConfigFile

@Suite struct CaptionSettingsTests {
    @Test func readsTheCaptionsTable() throws {
        let settings = try ConfigLoader.parse("""
            [captions]
            show = false
            date = true
            date_format = "%d.%m.%Y"
            font = "Noto Sans CJK JP:bold"
            size = 28
            max_lines = 2
            """, path: "captions.toml")
        var expected = Settings.Captions()
        expected.show = false
        expected.date = true
        expected.dateFormat = "%d.%m.%Y"
        expected.font = "Noto Sans CJK JP:bold"
        expected.size = 28
        expected.maxLines = 2
        #expect(settings.captions == expected)
    }

    @Test func sizeZeroIsThreePercentOfTheScreenHeight() {
        var captions = Settings.Captions()
        #expect(captions.pixelSize(screenHeight: 1080) == 32)
        #expect(captions.pixelSize(screenHeight: 600) == 18)
        captions.size = 40
        #expect(captions.pixelSize(screenHeight: 1080) == 40)
    }

    @Test func badValuesNameTheKeyAndWhatItTakes() throws {
        func message(_ text: String) -> String {
            do {
                _ = try ConfigLoader.parse(text, path: "captions.toml")
                return "parsed"
            } catch {
                return error.problems.map(\.message).joined(separator: " | ")
            }
        }
        #expect(message("[captions]\nmax_lines = 0\n").contains("`captions.max_lines`"))
        #expect(message("[captions]\nmax_lines = 0\n").contains("1...20"))
        #expect(message("[captions]\nsize = -3\n").contains("0...500"))
        #expect(message("[captions]\nfont = \"\"\n").contains("a fontconfig pattern"))
        #expect(message("[captions]\ndate_format = 5\n").contains("strftime"))
        // A format that passes as text but gives a date too long to show, or none at all.
        #expect(message("[captions]\ndate_format = \"%1000000Y\"\n") == "`captions.date_format` must be a strftime format "
            + "such as \"%e %B %Y\" (at most 100 characters); got \"%1000000Y\": its date for Wednesday 25 September 2024, "
            + "23:59:59 is longer than 1024 bytes")
        #expect(message("[captions]\ndate_format = \"\(String(repeating: "%c", count: 50))\"\n")
            .hasSuffix("is longer than 1024 bytes"))
        #expect(message("[captions]\ndate_format = \"   \"\n").hasSuffix("is empty"))
        #expect(message("[captions]\nmax_line = 2\n").contains("did you mean `max_lines`"))
        #expect(message("[caption]\nshow = true\n").contains("did you mean [captions]"))
    }
}
