import Blitter
import Dispatch
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import RemoteControl

/// The server's request path without a socket, for the `http` fuzz target and its regressions:
/// bytes as a client sent them go through NIO's HTTP/1 decoder (with the server's limits),
/// `ConnectionCloseHandler`, the conversion to HTTP types and `RequestDeadlineHandler`, as in
/// `RemoteChannel`; each whole request is answered by `RemoteResponder` (routes, query, token,
/// the remote action's JSON) and its answer's head written back through the encoder. A stand-in
/// for the run loop hands over a 4x2 frame to a screenshot.
public struct RemoteExchange {
    public struct Outcome: Equatable, Sendable {
        /// The status of each answer, in order.
        public var statuses: [Int] = []
        /// The decoder refused the bytes (Hummingbird answers 400 and closes).
        public var malformed = false
        /// The last answer said `Connection: close`.
        public var closes = false
    }

    let state: RemoteState
    let responder: RemoteResponder
    let logger: Logger

    public init(state: RemoteState, tokenFile: String) {
        self.state = state
        responder = RemoteResponder(state: state, tokenFile: tokenFile)
        var logger = Logger(label: "remote-exchange")
        logger.logLevel = .critical
        self.logger = logger
    }

    public func answer(_ bytes: [UInt8]) throws -> Outcome {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = RemoteServer.decoderLimits.maxHeaderFieldSize
        limits.maxHeaderListSize = RemoteServer.decoderLimits.maxHeaderListSize
        limits.maxHeaderFieldCount = RemoteServer.decoderLimits.maxHeaderFieldCount
        let pipeline = channel.pipeline.syncOperations
        try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                 withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
                                                 withDecoderLimitConfiguration: limits)
        try pipeline.addHandler(ConnectionCloseHandler())
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try pipeline.addHandler(RequestDeadlineHandler(headLimit: .seconds(5), requestLimit: .seconds(10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()

        var outcome = Outcome()
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
        } catch {
            outcome.malformed = true
        }
        var head: HTTPRequest?
        var body = ByteBuffer()
        while let part = try? channel.readInbound(as: HTTPRequestPart.self) {
            switch part {
            case .head(let next):
                head = next
                body.clear()
            case .body(var more):
                // As `collect(upTo:)` does: what is over the limit is refused, not kept.
                if body.readableBytes <= RemoteResponder.bodyLimit { body.writeBuffer(&more) }
            case .end:
                guard let request = head else { continue }
                head = nil
                let response = respond(to: Request(head: request, body: RequestBody(buffer: body)), channel: channel)
                try channel.writeOutbound(HTTPResponsePart.head(response.head))
                try channel.writeOutbound(HTTPResponsePart.end(nil))
                var written = ByteBuffer()
                while var buffer = try channel.readOutbound(as: ByteBuffer.self) { written.writeBuffer(&buffer) }
                let text = String(buffer: written).lowercased()
                precondition(text.hasPrefix("http/1.1 \(response.status.code) "), "the encoder wrote \(text.prefix(80))")
                outcome.statuses.append(response.status.code)
                outcome.closes = text.contains("\r\nconnection: close\r\n")
                // Hummingbird reads no further request after one that closes the connection.
                if request.headerFields[.connection] == "close" { return outcome }
            }
        }
        return outcome
    }

    /// `RemoteResponder.respond`, waited for; the loop's side of a screenshot meanwhile.
    private func respond(to request: Request, channel: any Channel) -> Response {
        let done = DispatchSemaphore(value: 0)
        let answer = AnswerBox()
        let responder = responder, logger = logger
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        Task.detached {
            answer.response = try? await responder.respond(to: request, context: context)
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
            if state.wantsScreenshot { state.answerScreenshots(with: Self.frame) }
        }
        _ = state.takeActions()
        return answer.response ?? Response(status: .internalServerError)
    }

    private static let frame = Bitmap(width: 4, height: 2, color: 0x20_40_60)

    private final class AnswerBox: @unchecked Sendable {
        var response: Response?
    }
}
