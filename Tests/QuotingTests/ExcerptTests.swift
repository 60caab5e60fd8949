import Foundation
import Quoting
import Testing

/// No message quotes more than a bounded excerpt of what it read from outside (SPEC §6).
@Suite struct ExcerptTests {
    @Test func shortTextIsQuotedWhole() {
        #expect(Excerpt("tap_slop = 12").description == "tap_slop = 12")
        let atTheLimit = String(repeating: "a", count: Excerpt.defaultLimit)
        #expect(Excerpt(atTheLimit).description == atTheLimit)
    }

    /// A 50 MB number in one line of a replayed recording made a 100 MB error message once.
    @Test func longTextKeepsItsStartAndEndAndSaysHowMuchWasCut() throws {
        let line = "E: 0.000001 0003 0035 " + String(repeating: "9", count: 50_000_000) + " end"
        let excerpt = Excerpt(line).description
        #expect(excerpt.utf8.count <= Excerpt.defaultLimit + 32)
        #expect(excerpt.hasPrefix("E: 0.000001 0003 0035 999"))
        #expect(excerpt.hasSuffix("999 end"))
        let start = try #require(excerpt.range(of: "…["))
        let end = try #require(excerpt.range(of: " bytes cut]…"))
        let cut = try #require(Int(excerpt[start.upperBound..<end.lowerBound]))
        let marker = excerpt[start.lowerBound..<end.upperBound]
        #expect(cut + excerpt.utf8.count - marker.utf8.count == line.utf8.count)
    }

    @Test func anExcerptQuotedAgainIsTheSame() {
        let once = Excerpt(String(repeating: "ab", count: 10_000)).description
        #expect(once.utf8.count < 20_000)
        #expect(Excerpt(once).description == once)
    }

    @Test(arguments: [8, 9, 10, 11, 50, 199, 200, 201])
    func cutsOnCharacterBoundaries(limit: Int) {
        let text = String(repeating: "日本", count: 500)
        let excerpt = Excerpt(text, limit: limit).description
        let kept = excerpt.unicodeScalars.filter { $0 == "日" || $0 == "本" }.count
        #expect(kept * 3 <= limit && kept > 0)
        #expect(excerpt.contains("bytes cut"))
    }

    @Test func aSubstringIsExcerptedLikeTheString() {
        let text = String(repeating: "x", count: 1000) + "tail"
        #expect(Excerpt(text[...]).description == Excerpt(text).description)
    }
}
