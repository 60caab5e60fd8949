import Blitter
import HTTPTypes
import Hummingbird
import NIOCore
import PNG
import RemoteControl

/// The endpoints of SPEC §9 and the status page of §14, and their errors. Answers from the published snapshot; actions and
/// screenshots go through `RemoteState` to the run loop.
struct RemoteResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// Bodies of POST /control larger than this are refused (413).
    static let bodyLimit = 4096
    /// How long /screenshot waits for the run loop to hand over its frame.
    static let screenshotTimeout = 2.0

    enum Route: String, CaseIterable {
        case page = "/"
        case metrics = "/metrics"
        case status = "/status"
        case screenshot = "/screenshot"
        case control = "/control"
        case openAPI = "/openapi.json"

        var method: HTTPRequest.Method { self == .control ? .post : .get }
        /// What it answers: HEAD wherever GET.
        var methods: [HTTPRequest.Method] { method == .get ? [.get, .head] : [method] }
        var needsToken: Bool { self == .screenshot || self == .control }
    }

    let state: RemoteState
    let tokenFile: String

    func respond(to request: Request, context: Context) async throws -> Response {
        RemoteServer.yieldToTheFrameLoop()
        defer { state.noteAnswered() }
        let response = await answer(request)
        // HEAD is GET without the body (RFC 9110 §9.3.2): the same status and headers, the
        // Content-Length GET's body has; every answer to it, errors too.
        return request.method == .head ? response.createHeadResponse() : response
    }

    private func answer(_ request: Request) async -> Response {
        guard let route = Route(rawValue: request.uri.path) else {
            let endpoints = Route.allCases.map { "\($0.methods.map(\.rawValue).joined(separator: "/")) \($0.rawValue)" }.joined(separator: ", ")
            return Self.text(.notFound, "no such endpoint: \(request.uri.path.prefix(200)); there are \(endpoints)")
        }
        guard route.methods.contains(request.method) else {
            let allowed = route.methods.map(\.rawValue).joined(separator: ", ")
            var response = Self.text(.methodNotAllowed, "\(route.rawValue) takes \(route.methods.map(\.rawValue).joined(separator: " or ")) only")
            response.headers[.allow] = allowed
            return response
        }
        if route.needsToken, let refusal = authorize(request) { return refusal }
        switch route {
        case .page:
            var response = Self.bytes(.ok, StatusPage.html)
            response.headers[.contentType] = StatusPage.contentType
            response.headers[.contentSecurityPolicy] = StatusPage.contentSecurityPolicy
            response.headers[.xContentTypeOptions] = "nosniff"
            return response
        case .metrics:
            var response = Self.bytes(.ok, Array(MetricsText.render(state.currentSnapshot()).utf8))
            response.headers[.contentType] = MetricsText.contentType
            return response
        case .status:
            var response = Self.bytes(.ok, StatusJSON.render(state.currentSnapshot()))
            response.headers[.contentType] = "application/json"
            return response
        case .screenshot:
            return await screenshot()
        case .control:
            return await control(request)
        case .openAPI:
            var response = Self.bytes(.ok, OpenAPIDocument.bytes)
            response.headers[.contentType] = OpenAPIDocument.contentType
            return response
        }
    }

    /// nil when the request carries the token; else the answer: 403 while the token file makes
    /// these endpoints off, 401 for a missing or wrong token.
    private func authorize(_ request: Request) -> Response? {
        switch AccessToken.load(path: tokenFile) {
        case .off(let why):
            return Self.text(.forbidden, "/screenshot and /control are off: \(why)")
        case .token(let token):
            guard AccessToken.authorizes(request.headers[.authorization], token: token) else {
                var response = Self.text(.unauthorized, request.headers[.authorization] == nil
                    ? "this endpoint needs \"Authorization: Bearer TOKEN\" (the token of remote.token_file)"
                    : "wrong token")
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            }
            return nil
        }
    }

    private func screenshot() async -> Response {
        guard let frame = await state.screenshot(timeout: Self.screenshotTimeout) else {
            let snapshot = state.currentSnapshot()
            let why = snapshot.state == .waitingForDisplay ? "waiting for a display" : "no frame composed yet"
            return Self.text(.serviceUnavailable, "no frame on screen: \(why)")
        }
        do {
            var response = Self.bytes(.ok, try PNGEncoder.encode(frame))
            response.headers[.contentType] = "image/png"
            return response
        } catch {
            return Self.text(.internalServerError, "cannot encode the frame: \(error)")
        }
    }

    private func control(_ request: Request) async -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.bodyLimit {
            return Self.text(.contentTooLarge, "the body has \(length) bytes; at most \(Self.bodyLimit)")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.bodyLimit)
        } catch {
            return Self.text(.contentTooLarge, "the body is over \(Self.bodyLimit) bytes")
        }
        switch state.submit(json: Array(body.readableBytesView)) {
        case .failure(let refusal):
            return Self.text(.init(code: refusal.status), refusal.message)
        case .success(let action):
            var response = Self.bytes(.accepted, Array("{\"accepted\":\"\(action.name)\"}\n".utf8))
            response.headers[.contentType] = "application/json"
            return response
        }
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var response = bytes(status, Array((message + "\n").utf8))
        response.headers[.contentType] = "text/plain; charset=utf-8"
        return response
    }

    static func bytes(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
