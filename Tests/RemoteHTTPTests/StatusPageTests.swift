import Foundation
import Logging
import RemoteControl
@testable import RemoteHTTP
import Testing
import TestSupport

/// The status page (SPEC §14) as the server sends it: the policy lets exactly its own style and
/// script run (their hashes are right), nothing in it comes from elsewhere or is blocked by that
/// policy, and its buttons send actions /control takes. That it works is the browser's to show
/// (Tests/EndToEnd/test_status_page.py).
@Suite(.serialized) struct StatusPageTests {
    /// "sha256-BASE64" of the text, by coreutils' sha256sum.
    private func hash(_ text: String) throws -> String {
        let folder = try TestPaths.temporaryDirectory("status-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/text"))
        let result = try ProcessResult.run([folder + "/text"], executable: "/usr/bin/sha256sum")
        let hex = Array(result.stdout.prefix(64))
        let bytes = stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0...$0 + 1]), radix: 16) }
        try #require(bytes.count == 32, "sha256sum said \(result.stdout) \(result.stderr)")
        return "sha256-" + Data(bytes).base64EncodedString()
    }

    @Test func thePolicyAllowsExactlyTheInlineStyleAndScript() throws {
        let style = try hash(StatusPage.style), script = try hash(StatusPage.script)
        #expect(StatusPage.styleHash == style, "the page's style changed: set StatusPage.styleHash to \(style)")
        #expect(StatusPage.scriptHash == script, "the page's script changed: set StatusPage.scriptHash to \(script)")
        let page = String(decoding: StatusPage.html, as: UTF8.self)
        #expect(page.contains("<style>" + StatusPage.style + "</style>"))
        #expect(page.contains("<script>" + StatusPage.script + "</script>"))
        #expect(page.components(separatedBy: "<script").count == 2)
        #expect(page.components(separatedBy: "<style").count == 2)
        #expect(StatusPage.contentSecurityPolicy.hasPrefix("default-src 'none'; "))
    }

    @Test func nothingComesFromElsewhereOrIsBlocked() throws {
        let page = String(decoding: StatusPage.html, as: UTF8.self)
        // No other site, and no attribute the policy would block: inline handlers, style attributes.
        for forbidden in ["http:", "https:", "=\"//", "url(", "@import", " style=", "javascript:", "<iframe", "<object",
                          "<embed", " src=\""] {
            #expect(!page.contains(forbidden), "the page holds \(forbidden)")
        }
        #expect(page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "an inline event handler")
        // Every element the script looks up is in the page.
        let looked = Set(StatusPage.script.matches(of: #/byId\("([a-z-]+)"\)/#).map { String($0.output.1) })
        #expect(looked.count >= 10)
        for id in looked {
            #expect(page.contains("id=\"\(id)\""), "the script looks up #\(id), which the page lacks")
        }
    }

    @Test func everyButtonIsAnActionControlTakes() throws {
        let page = String(decoding: StatusPage.html, as: UTF8.self)
        let actions = page.matches(of: #/data-action="([a-z_]+)"/#).map { String($0.output.1) }
        #expect(Set(actions) == ["next", "previous", "close", "screen_off", "screen_on", "reload"])
        let state = RemoteState(version: "1", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .showing
        snapshot.photoCount = 2
        snapshot.currentIndex = 0
        snapshot.display = .init(connector: "HDMI-A-1", mode: "1920x1080@60", connected: true)
        state.publish(snapshot)
        for action in actions {
            let body = try JSONSerialization.data(withJSONObject: ["action": action])
            guard case .success = state.submit(json: Array(body)) else {
                Issue.record("/control refuses the page's \(action)")
                continue
            }
        }
    }

    @Test func theServerSendsThePageWithItsPolicy() async throws {
        let folder = try TestPaths.temporaryDirectory("status-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let state = RemoteState(version: "1", wake: {})
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: folder + "/no-token", state: state, logger: logger)
        defer { Thread { server.stop() }.start() }
        for _ in 0..<3000 where server.port == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        let port = try #require(server.port)

        func answer(_ request: String) async throws -> String {
            try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(with: Result {
                        let connection = try LoopbackHTTP.Connection(port: port)
                        try connection.send(request)
                        return connection.readToEnd().text
                    })
                }.start()
            }
        }
        let text = try await answer("GET / HTTP/1.1\r\nHost: kiosk\r\nConnection: close\r\n\r\n")
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts[0].lowercased().split(separator: "\r\n").map(String.init)
        #expect(head.first == "http/1.1 200 ok")
        #expect(head.contains("content-type: text/html; charset=utf-8"))
        #expect(head.contains("content-security-policy: " + StatusPage.contentSecurityPolicy.lowercased()))
        #expect(head.contains("x-content-type-options: nosniff"))
        #expect(Array(parts.dropFirst().joined(separator: "\r\n\r\n").utf8) == StatusPage.html)
        // The page is the only thing at "/": other methods are refused, a query is the same page.
        #expect(try await answer("POST / HTTP/1.1\r\nHost: k\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .hasPrefix("HTTP/1.1 405 "))
        #expect(try await answer("GET /?x=1 HTTP/1.1\r\nHost: k\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200 "))
    }
}
