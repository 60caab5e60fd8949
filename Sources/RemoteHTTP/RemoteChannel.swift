import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// One accepted connection of the remote server: Hummingbird's HTTP/1.1 channel, behind the limit
/// of connections per client address, with `ConnectionCloseHandler` before the conversion to HTTP
/// types (where the request's version is still known). A connection over its address's limit is
/// closed at once, before any handler is set up for it.
struct RemoteChannel: ServerChildChannel {
    enum Value: ServerChildChannelValue {
        case served(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case refused(any Channel)

        var channel: any Channel {
            switch self {
            case .served(let served): served.channel
            case .refused(let channel): channel
            }
        }
    }

    let http1: HTTP1Channel
    let connections: ConnectionsPerAddress

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.admit(channel) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededFuture(.refused(channel))
        }
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { served in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionCloseHandler(),
                                    position: .before(try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            return .served(served)
        }
    }

    func handle(value: Value, logger: Logger) async {
        guard case .served(let served) = value else { return }
        await http1.handle(value: served, logger: logger)
    }
}
