import NIOCore
import NIOHTTP1

/// Closes the connection after the answer to a request that cannot keep it open: HTTP/1.0 (and
/// anything but 1.1, keep-alive asked for or not) and a request that says `Connection: close`.
/// The request is marked with exactly `Connection: close`, which is what Hummingbird looks for to
/// stop reading and shut its side after the answer, and the answer says `Connection: close`.
/// Sits before the conversion to HTTP types, which drops the request's version.
final class ConnectionCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The request being answered ends the connection.
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if Self.endsConnection(head) {
            closing = true
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closing, case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    static func endsConnection(_ head: HTTPRequestHead) -> Bool {
        head.version != .http1_1 || head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
    }
}
