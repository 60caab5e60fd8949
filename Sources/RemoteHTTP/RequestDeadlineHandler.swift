import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not keep to two deadlines. The head of each request must arrive
/// within `headLimit` of the connection's accept or of the previous answer: a client that sends
/// half a request, or a byte every few seconds, or nothing at all, holds a slot for that long at
/// most (Hummingbird's idle timeout restarts at every byte read, so it never cuts a slow head), and
/// an idle keep-alive connection is closed after the same time. Then the request must be read and
/// answered within `requestLimit` of its head: a client that sends its body a byte a second would
/// otherwise hold a descriptor for an hour (a request answered early, a 401 say, still has its body
/// read to the end). Sits between the HTTP decoder and Hummingbird's handlers.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let headLimit: TimeAmount
    private let requestLimit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Heads read whose answer has not ended yet (more than one when a client pipelines).
    private var unanswered = 0
    /// Heads read whose request has not ended yet.
    private var unread = 0

    init(headLimit: TimeAmount, requestLimit: TimeAmount) {
        self.headLimit = headLimit
        self.requestLimit = requestLimit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitHead(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil, unanswered == 0 { awaitHead(context: context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            unread += 1
            if unanswered == 1 { schedule(in: requestLimit, context: context) }
        case .end:
            unread = max(0, unread - 1)
            if unanswered == 0, unread == 0 { awaitHead(context: context) }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), unanswered > 0 {
            unanswered -= 1
            if unanswered > 0 {
                // The next pipelined request is answered from now.
                schedule(in: requestLimit, context: context)
            } else if unread == 0 {
                awaitHead(context: context)
            }
            // else: answered early (a 401, a 413) while its body still comes: the request's
            // deadline stands.
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    private func awaitHead(context: ChannelHandlerContext) {
        schedule(in: headLimit, context: context)
    }

    private func schedule(in limit: TimeAmount, context: ChannelHandlerContext) {
        cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}
