import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request is not both read and answered within `limit` of its head
/// arriving: a client that sends its body a byte a second would otherwise hold a descriptor for an
/// hour (Hummingbird's idle timeout, which covers a head sent slowly, restarts at every body part,
/// and a request answered early, a 401 say, still has its body read to the end). Sits between the
/// HTTP decoder and Hummingbird's handlers.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    private var requestRead = false
    private var responseWritten = false

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head where deadline == nil:
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
        case .end:
            requestRead = true
            finishIfDone()
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responseWritten = true
            finishIfDone()
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    /// The request is read and answered: the next one gets its own deadline.
    private func finishIfDone() {
        guard requestRead, responseWritten else { return }
        deadline?.cancel()
        deadline = nil
        requestRead = false
        responseWritten = false
    }
}
