import Blitter
import Foundation
import Glibc
import Logging
import RemoteControl
import RemoteHTTP
import Synchronization
import Testing
import TestSupport

/// The real server on a loopback port: the routes, the token, and the hand-over to a stand-in for
/// the run loop (a thread that answers when woken, as `KioskRunner` does through its eventfd).
/// The client blocks on threads of its own: Swift's task threads, which the tests share, are the
/// server's too.
@Suite(.serialized) struct RemoteServerTests {
    /// One request with "Connection: close"; the status code and body.
    private func exchange(_ port: Int, _ request: String) async throws -> (status: Int, body: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try LoopbackHTTP.exchange(port, request) }) }.start()
        }
    }

    private func get(_ port: Int, _ path: String, token: String? = nil) async throws -> (status: Int, body: String) {
        try await exchange(port, "GET \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
                     + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n")
    }

    private func post(_ port: Int, _ body: String, token: String?) async throws -> (status: Int, body: String) {
        try await exchange(port, "POST /control HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
                     + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n" + body)
    }

    /// `stop` waits for the server's tasks, which need the task threads this test is on.
    private static func stopOffThePool(_ server: RemoteServer) {
        Thread { server.stop() }.start()
    }

    private func startServer(tokenFile: String, state: RemoteState) async throws -> (RemoteServer, Int) {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = RemoteServer(host: "127.0.0.1", port: 0, tokenFile: tokenFile, state: state, logger: logger)
        for _ in 0..<3000 where server.port == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        return (server, try #require(server.port))
    }

    @Test func routesTokenAndHandOver() async throws {
        let folder = try TestPaths.temporaryDirectory("remote-server")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "sesame\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let wakes = Atomic<Int>(0)
        let state = RemoteState(version: "9.9.9", wake: { wakes.add(1, ordering: .relaxed) })
        var snapshot = state.currentSnapshot()
        snapshot.state = .showing
        snapshot.photoCount = 3
        snapshot.framesDrawn = 42
        state.publish(snapshot)
        let (server, port) = try await startServer(tokenFile: folder + "/token", state: state)
        defer { Self.stopOffThePool(server) }

        let status = try await get(port, "/status")
        #expect(status.status == 200)
        #expect(status.body.contains("\"photo_count\":3"))
        let metrics = try await get(port, "/metrics?x=1")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains("vitrine_frames_total 42\n"))
        #expect(metrics.body.contains("vitrine_build_info{version=\"9.9.9\"} 1\n"))
        #expect(try await get(port, "/nope").status == 404)
        #expect(try await exchange(port, "DELETE /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status == 405)

        #expect(try await post(port, #"{"action": "next"}"#, token: nil).status == 401)
        #expect(try await post(port, #"{"action": "next"}"#, token: "sesamE").status == 401)
        #expect(try await post(port, #"{"action": "jump"}"#, token: "sesame").status == 400)
        #expect(try await post(port, #"{"action": "open", "index": 3}"#, token: "sesame").status == 400)
        #expect(try await post(port, String(repeating: " ", count: 4097), token: "sesame").status == 413)
        #expect(state.takeActions().isEmpty)
        let accepted = try await post(port, #"{"action": "open", "index": 2}"#, token: "sesame")
        #expect(accepted.status == 202)
        #expect(accepted.body == "{\"accepted\":\"open\"}\n")
        #expect(state.takeActions() == [.open(2)])
        #expect(wakes.load(ordering: .relaxed) >= 1)

        // The screenshot is whatever frame the loop hands over, as PNG.
        let loop = Thread {
            while !state.wantsScreenshot { usleep(1000) }
            state.answerScreenshots(with: Bitmap(width: 4, height: 2, color: 0x00_FF_00))
        }
        loop.start()
        let shot = try await get(port, "/screenshot", token: "sesame")
        #expect(shot.status == 200)
        #expect(shot.body.hasPrefix("\u{FFFD}PNG"))
        #expect(try await get(port, "/screenshot").status == 401)

        // Without the token file: off, and it says so.
        try FileManager.default.removeItem(atPath: folder + "/token")
        let off = try await get(port, "/screenshot", token: "sesame")
        #expect(off.status == 403)
        #expect(off.body.contains("/screenshot and /control are off"))
        #expect(state.requestsAnswered == 13)
    }

    @Test func whileWaitingForADisplayOnlyReloadIsTaken() async throws {
        let folder = try TestPaths.temporaryDirectory("remote-server")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "t0k3n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let state = RemoteState(version: "1", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .waitingForDisplay
        state.publish(snapshot)
        let (server, port) = try await startServer(tokenFile: folder + "/token", state: state)
        defer { Self.stopOffThePool(server) }
        #expect(try await post(port, #"{"action": "next"}"#, token: "t0k3n").status == 503)
        #expect(try await post(port, #"{"action": "reload"}"#, token: "t0k3n").status == 202)
        #expect(state.takeActions() == [.reload])
        // Nobody answers the screenshot: 503 after the server's wait.
        let shot = try await get(port, "/screenshot", token: "t0k3n")
        #expect(shot.status == 503)
        #expect(shot.body.contains("waiting for a display"))
    }
}
