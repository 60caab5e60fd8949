import Blitter
import Foundation
import Glibc
import Logging
import RemoteControl
@testable import RemoteHTTP
import Testing
import TestSupport

/// `GET /openapi.json` and the document it serves: the bytes kept in `OpenAPIDocument`, every route
/// described with its method, and the real server's answers, good and bad, with a status and a
/// media type (and the headers) the document lists for them. schemathesis checks the bodies
/// against the schemas end to end (`Tests/EndToEnd/test_remote_openapi.py`); this checks, without
/// Python, the answers it cannot reach (the token file off, 413, 404, 405).
@Suite(.serialized) struct OpenAPIDocumentTests {
    private struct Answer {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: String
    }

    private struct NoAnswer: Error {
        var text: String
    }

    private static let document: [String: Any] = {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes))) as? [String: Any] ?? [:]
    }()

    /// One request with "Connection: close" on a thread of its own (the server answers on the task
    /// threads this test would otherwise hold).
    private func exchange(_ port: Int, _ request: String) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let connection = try LoopbackHTTP.Connection(port: port)
                    try connection.send(request)
                    let text = connection.readToEnd().text
                    guard let split = text.range(of: "\r\n\r\n") else { throw NoAnswer(text: text) }
                    let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
                    let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
                    var headers: [String: String] = [:]
                    for line in lines.dropFirst() {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    return Answer(status: status, headers: headers, body: String(text[split.upperBound...]))
                })
            }.start()
        }
    }

    private func request(_ method: String, _ path: String, token: String? = nil, body: String? = nil) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
            + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "")
            + (body.map { "Content-Type: application/json\r\nContent-Length: \($0.utf8.count)\r\n" } ?? "")
            + "\r\n" + (body ?? "")
    }

    private func startServer(tokenFile: String, state: RemoteState) async throws -> (RemoteServer, Int) {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: tokenFile, state: state, logger: logger)
        for _ in 0..<3000 where server.port == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        return (server, try #require(server.port))
    }

    private static func stopOffThePool(_ server: RemoteServer) {
        Thread { server.stop() }.start()
    }

    /// `#/components/...` resolved in the document.
    private static func resolved(_ object: [String: Any]) -> [String: Any] {
        guard let reference = object["$ref"] as? String, reference.hasPrefix("#/") else { return object }
        var node: Any = document
        for key in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] ?? [:] }
        return resolved(node as? [String: Any] ?? [:])
    }

    /// The response object the document gives for this answer: the operation's entry for its
    /// status, or for 404 and 405 the shared `NotFound` and `MethodNotAllowed`.
    private static func documented(_ method: String, _ path: String, _ status: Int) -> [String: Any]? {
        let components = document["components"] as? [String: Any]
        let shared = components?["responses"] as? [String: Any]
        if status == 404 { return shared?["NotFound"] as? [String: Any] }
        if status == 405 { return shared?["MethodNotAllowed"] as? [String: Any] }
        let paths = document["paths"] as? [String: Any]
        let operation = (paths?[path] as? [String: Any])?[method.lowercased()] as? [String: Any]
        return ((operation?["responses"] as? [String: Any])?[String(status)] as? [String: Any]).map(resolved)
    }

    /// Why this answer is not one the document lists: its status, its media type (the part before
    /// any parameters), a header the document names; nil when it is.
    private static func undocumented(_ method: String, _ path: String, _ answer: Answer) -> String? {
        guard let response = documented(method, path, answer.status) else {
            return "\(method) \(path) answered \(answer.status), which the document does not list"
        }
        let media = answer.headers["content-type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "(none)"
        let listed = (response["content"] as? [String: Any]).map { Array($0.keys) } ?? []
        guard listed.contains(media) else {
            return "\(method) \(path) \(answer.status) is \(media); the document lists \(listed)"
        }
        let headers = (response["headers"] as? [String: Any]).map { Array($0.keys) } ?? []
        for name in headers where answer.headers[name.lowercased()] == nil {
            return "\(method) \(path) \(answer.status) has no \(name) header, which the document lists"
        }
        return nil
    }

    @Test func theServedBytesAreTheDocumentAnOpenAPI31Object() async throws {
        let state = RemoteState(version: "1", wake: {})
        let (server, port) = try await startServer(tokenFile: "/nonexistent", state: state)
        defer { Self.stopOffThePool(server) }
        let answer = try await exchange(port, request("GET", "/openapi.json"))
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        #expect(answer.body == OpenAPIDocument.text)
        #expect(answer.headers["content-length"] == String(OpenAPIDocument.bytes.count))

        let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        let version = try #require(document["openapi"] as? String)
        #expect(version.hasPrefix("3.1."))
        #expect((document["info"] as? [String: Any])?["title"] is String)
    }

    /// Each route the server has, with its method (and only that one) and the bearer token where
    /// it needs one; and nothing the server does not have. "/" is the status page's.
    @Test func everyRouteIsDescribedWithItsMethodAndToken() throws {
        let paths = try #require(Self.document["paths"] as? [String: [String: Any]])
        let routes = RemoteResponder.Route.allCases
        #expect(Set(paths.keys) == Set(routes.map(\.rawValue)).union(["/"]))
        for route in routes {
            let item = try #require(paths[route.rawValue])
            #expect(Array(item.keys) == [route.method.rawValue.lowercased()], "\(route.rawValue)")
            let operation = try #require(item[route.method.rawValue.lowercased()] as? [String: Any])
            let security = operation["security"] as? [[String: [String]]]
            #expect((security == [["bearer": []]]) == route.needsToken, "\(route.rawValue)'s security: \(String(describing: security))")
            #expect(operation["operationId"] is String)
            #expect((operation["responses"] as? [String: Any])?.isEmpty == false)
        }
        #expect(Self.documented("GET", "/nowhere", 404) != nil)
        #expect(Self.documented("DELETE", "/status", 405) != nil)
    }

    /// Every route that answers GET answers HEAD as the document says: the same status and
    /// headers (the date aside), Content-Length that of GET's body, and no body, which a client
    /// that keeps the connection sees (the next answer starts right after the head). A POST route
    /// and an unknown path answer HEAD without a body too, and a GET route's 405 allows both.
    @Test func everyGETRouteAnswersHEADWithGETsHeadersAndNoBody() async throws {
        let folder = try TestPaths.temporaryDirectory("openapi-head")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenFile = folder + "/token"
        try "open-sesame\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let state = RemoteState(version: "1", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .showing
        snapshot.photoCount = 2
        state.publish(snapshot)
        let (server, port) = try await startServer(tokenFile: tokenFile, state: state)
        defer { Self.stopOffThePool(server) }
        // The run loop's side: hands over a frame to each screenshot, until the test ends.
        let ended = Ended()
        Thread {
            while !ended.value {
                if state.wantsScreenshot { state.answerScreenshots(with: Bitmap(width: 4, height: 2, color: 0x10_20_30)) }
                usleep(1000)
            }
        }.start()
        defer { ended.value = true }

        let gets = RemoteResponder.Route.allCases.filter { $0.method == .get }
        #expect(Set(gets.map(\.rawValue)) == ["/", "/metrics", "/status", "/screenshot", "/openapi.json"])
        for route in gets {
            let token = route.needsToken ? "open-sesame" : nil
            let get = try await exchange(port, request("GET", route.rawValue, token: token))
            let head = try await exchange(port, request("HEAD", route.rawValue, token: token))
            #expect(get.status == 200 && head.status == 200, "\(route.rawValue): \(head.status)")
            #expect(head.body.isEmpty, "\(route.rawValue)")
            #expect(head.headers.filter { $0.key != "date" } == get.headers.filter { $0.key != "date" }, "\(route.rawValue)")
            // The screenshot's PNG is not text: its length is the header's (the same, above).
            if route != .screenshot {
                #expect(head.headers["content-length"] == String(get.body.utf8.count), "\(route.rawValue)")
            }
            #expect(head.headers["content-length"] != nil, "\(route.rawValue)")
            #expect(Self.undocumented("GET", route.rawValue, head) == nil)
        }
        for (path, status) in [("/control", 405), ("/nowhere", 404)] {
            let head = try await exchange(port, request("HEAD", path))
            #expect(head.status == status && head.body.isEmpty, "HEAD \(path): \(head.status) \(head.body)")
        }
        let post = try await exchange(port, request("POST", "/status", body: "{}"))
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")

        // Kept alive: the answer to the GET after a HEAD starts where the HEAD's head ends.
        let pipelined = "HEAD /status HTTP/1.1\r\nHost: test\r\n\r\n" + request("GET", "/openapi.json")
        let both = try await exchange(port, pipelined)
        #expect(both.status == 200)
        #expect(both.body.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(both.body.prefix(200))")
        #expect(both.body.hasSuffix(OpenAPIDocument.text))
    }

    /// The keys `/status` writes are the ones the document requires: a key added to one and not
    /// the other fails here (the schema lets clients meet keys it does not name, so schemathesis
    /// would not notice).
    @Test func statusKeysAreTheDocumentsRequiredKeys() throws {
        var snapshot = RemoteSnapshot(version: "1")
        snapshot.state = .showing
        snapshot.mode = "pager"
        snapshot.currentIndex = 2
        snapshot.currentFile = "03.jpg"
        snapshot.currentClip = .init(kind: "clip", playing: true)
        snapshot.display = .init(connector: "HDMI-A-1", mode: "1920x1080@60", connected: true)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(StatusJSON.render(snapshot))) as? [String: Any])
        let schema = Self.resolved(["$ref": "#/components/schemas/Status"])
        let required = try #require(schema["required"] as? [String])
        #expect(Set(status.keys) == Set(required))
        #expect(Set(status.keys) == Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? []))
        let photo = try #require(status["current_photo"] as? [String: Any])
        let photoSchema = try #require((schema["properties"] as? [String: Any])?["current_photo"] as? [String: Any])
        #expect(Set(photo.keys) == Set((photoSchema["properties"] as? [String: Any])?.keys.map { $0 } ?? []))
    }

    /// Good and bad requests on every route, with the token, without it, with the token file off,
    /// waiting for a display and showing: each answer's status, media type and headers are listed.
    @Test func everyAnswerIsOneTheDocumentLists() async throws {
        let folder = try TestPaths.temporaryDirectory("openapi")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenFile = folder + "/token"
        try "open-sesame\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let state = RemoteState(version: "1", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .waitingForDisplay
        snapshot.stateDetail = "no /dev/dri"
        state.publish(snapshot)
        let (server, port) = try await startServer(tokenFile: tokenFile, state: state)
        defer { Self.stopOffThePool(server) }

        var seen: [String: Set<Int>] = [:]
        func check(_ method: String, _ path: String, token: String? = nil, body: String? = nil,
                   expect status: Int) async throws {
            let answer = try await exchange(port, request(method, path, token: token, body: body))
            #expect(answer.status == status, "\(method) \(path): \(answer.body)")
            #expect(Self.undocumented(method, path, answer) == nil, "\(Self.undocumented(method, path, answer) ?? "")")
            seen["\(method) \(path)", default: []].insert(answer.status)
        }
        let token = "open-sesame"
        for route in RemoteResponder.Route.allCases where route.method == .get && !route.needsToken {
            try await check("GET", route.rawValue, expect: 200)
            try await check("POST", route.rawValue, body: "{}", expect: 405)
        }
        try await check("GET", "/nowhere", expect: 404)
        try await check("DELETE", "/control", expect: 405)
        // Waiting for a display: no frame, and nothing but reload to act on.
        try await check("GET", "/screenshot", token: token, expect: 503)
        try await check("POST", "/control", token: token, body: #"{"action": "next"}"#, expect: 503)
        try await check("POST", "/control", token: token, body: #"{"action": "reload"}"#, expect: 202)
        try await check("GET", "/screenshot", expect: 401)
        try await check("GET", "/screenshot", token: "open-sesamE", expect: 401)
        try await check("POST", "/control", body: #"{"action": "reload"}"#, expect: 401)
        for bad in ["{not json", #"{"action": "explode"}"#, #"{"action": "open"}"#, #"{"action": "open", "index": 0.5}"#, "[]"] {
            try await check("POST", "/control", token: token, body: bad, expect: 400)
        }
        try await check("POST", "/control", token: token, body: String(repeating: " ", count: 5000), expect: 413)

        // Showing: actions are taken, and the loop's frame is the screenshot.
        snapshot.state = .showing
        snapshot.photoCount = 2
        state.publish(snapshot)
        try await check("POST", "/control", token: token, body: #"{"action": "open", "index": 1}"#, expect: 202)
        try await check("POST", "/control", token: token, body: #"{"action": "open", "index": 2}"#, expect: 400)
        let loop = Thread {
            while !state.wantsScreenshot { usleep(1000) }
            state.answerScreenshots(with: Bitmap(width: 4, height: 2, color: 0x10_20_30))
        }
        loop.start()
        try await check("GET", "/screenshot", token: token, expect: 200)

        // The token file gone: both protected endpoints are off.
        try FileManager.default.removeItem(atPath: tokenFile)
        try await check("GET", "/screenshot", token: token, expect: 403)
        try await check("POST", "/control", token: token, body: #"{"action": "next"}"#, expect: 403)

        #expect(seen["GET /screenshot"] == [200, 401, 403, 503])
        #expect(seen["POST /control"] == [202, 400, 401, 403, 413, 503])
    }
}

/// A flag one thread sets and another reads.
private final class Ended: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    var value: Bool {
        get { lock.withLock { ended } }
        set { lock.withLock { ended = newValue } }
    }
}
