import RemoteControl
import Testing

@Suite struct RemoteActionTests {
    private func parse(_ json: String, photos: Int = 6) -> Result<RemoteAction, RemoteRequestError> {
        RemoteAction.parse(json: Array(json.utf8), photoCount: photos)
    }

    @Test func everyActionParses() {
        #expect(parse(#"{"action": "next"}"#) == .success(.next))
        #expect(parse(#"{"action": "previous"}"#) == .success(.previous))
        #expect(parse(#"{"action": "open", "index": 5}"#) == .success(.open(5)))
        #expect(parse(#"{"action": "close"}"#) == .success(.close))
        #expect(parse(#"{"action": "screen_off"}"#) == .success(.screenOff))
        #expect(parse(#"{"action": "screen_on"}"#) == .success(.screenOn))
        #expect(parse(#"{"action": "reload", "index": 3}"#) == .success(.reload))
        #expect(RemoteAction.open(3).description == "open 3")
    }

    @Test func badBodiesAreBadRequestsThatSayWhy() throws {
        let cases: [(String, String)] = [
            ("", "not a JSON object"),
            ("{", "not a JSON object"),
            ("[1, 2]", "not a JSON object"),
            ("\u{0}\u{1}garbage", "not a JSON object"),
            (#"{"index": 1}"#, "has no \"action\""),
            (#"{"action": 3}"#, "\"action\" has the wrong type"),
            (#"{"action": "jump"}"#, "unknown action \"jump\": one of next, previous, open, close, screen_off, screen_on, reload"),
            (#"{"action": "open"}"#, "\"open\" needs an \"index\""),
            (#"{"action": "open", "index": "2"}"#, "\"index\" has the wrong type"),
            (#"{"action": "open", "index": 6}"#, "\"index\" 6 is out of range: 6 photos, 0...5"),
            (#"{"action": "open", "index": -1}"#, "out of range"),
            (#"{"action": "open", "index": 1.5}"#, "\"index\" has the wrong type"),
            // An integer too large for any photo, or for Int: out of range, with the range.
            (#"{"action": "open", "index": 9223372036854775807}"#, "\"index\" 9.223372036854776e+18 is out of range: 6 photos, 0...5"),
            (#"{"action": "open", "index": -9223372036854775808}"#, "is out of range: 6 photos, 0...5"),
            (#"{"action": "open", "index": 1e300}"#, "\"index\" 1e+300 is out of range: 6 photos, 0...5"),
        ]
        for (body, message) in cases {
            guard case .failure(let error) = parse(body) else {
                Issue.record("\(body) parsed")
                continue
            }
            #expect(error.status == 400)
            #expect(error.message.contains(message), "\(body): \(error.message)")
        }
    }

    @Test func openWithNoPhotosIsRefused() {
        guard case .failure(let error) = parse(#"{"action": "open", "index": 0}"#, photos: 0) else {
            Issue.record("parsed")
            return
        }
        #expect(error.message.contains("out of range: 0 photos"))
    }
}
