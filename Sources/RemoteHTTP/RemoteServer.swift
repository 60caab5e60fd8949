import Dispatch
import Glibc
import HummingbirdCore
import Hummingbird
import Linux
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RemoteControl
import ServiceLifecycle

/// The HTTP transport (SPEC §9) on Hummingbird: one event loop thread of its own plus Swift's task
/// threads for the answers, never the run loop's; it meets the loop only through `RemoteState`. A bind failure is logged and the kiosk goes on
/// showing photos without it.
public final class RemoteServer: ControlTransport, @unchecked Sendable {
    /// How long a client has to send a request and to be answered, and how many connections it
    /// may hold. `standard` is what `run` uses; tests shorten the deadlines.
    public struct Limits: Sendable {
        /// A request's head must arrive within this of the accept or of the previous answer; an
        /// idle keep-alive connection is closed after it too (`RequestDeadlineHandler`).
        public var head: Duration
        /// A request must be read and answered within this of its head; a connection that sends
        /// nothing for this long is closed (Hummingbird's idle timeout).
        public var request: Duration
        /// Connections of the whole server. More wait in the listen backlog until one closes:
        /// each holds a descriptor.
        public var connections: Int
        /// Connections of one client address; more from it are closed at once (a client that
        /// opens connections and sends half a request cannot take the others' slots).
        public var connectionsPerAddress: Int

        public init(head: Duration, request: Duration, connections: Int, connectionsPerAddress: Int) {
            self.head = head
            self.request = request
            self.connections = connections
            self.connectionsPerAddress = connectionsPerAddress
        }

        /// 5 s for a head, 10 s for a request, 64 connections, 8 of them per address: a
        /// Prometheus scraper, a browser and a script each need one or a few.
        public static let standard = Limits(head: .seconds(5), request: .seconds(10), connections: 64,
                                            connectionsPerAddress: 8)
    }

    /// 8 KB a header, 16 KB and 100 fields in all.
    static let decoderLimits = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: 8192, maxHeaderListSize: 16384, maxHeaderFieldCount: 100)
    /// The niceness of the server's threads: under load the frame loop (nice 0) gets the CPU first.
    static let nice: Int32 = 10

    private let group: MultiThreadedEventLoopGroup
    private let services: ServiceGroup
    private let finished = DispatchSemaphore(value: 0)
    private let boundPort = NIOLockedValueBox<Int?>(nil)

    /// Starts listening on `host`:`port` (0: any free port, for tests) and returns at once; the
    /// log says when it listens or why it cannot.
    public init(host: String, port: Int, tokenFile: String, state: RemoteState, logger: Logger,
                limits: Limits = .standard) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        group.next().execute { Self.yieldToTheFrameLoop() }
        let where_ = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let boundPort = boundPort
        let connections = ConnectionsPerAddress(limit: limits.connectionsPerAddress)
        let application = Application(
            responder: RemoteResponder(state: state, tokenFile: tokenFile),
            server: HTTPServerBuilder { responder in
                RemoteChannel(
                    http1: HTTP1Channel(responder: responder, configuration: HTTP1Channel.Configuration(
                        additionalChannelHandlers: [RequestDeadlineHandler(headLimit: TimeAmount(limits.head), requestLimit: TimeAmount(limits.request))],
                        idleTimeout: TimeAmount(limits.request),
                        httpDecoderConfiguration: Self.decoderLimits)),
                    connections: connections)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: "vitrine",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.connections)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port
                boundPort.withLockedValue { $0 = port }
                let routes = RemoteResponder.Route.allCases.map(\.rawValue).joined(separator: ", ")
                logger.info("remote: listening on \(where_)\(port.map { " (port \($0))" } ?? "") for \(routes)")
            },
            eventLoopGroupProvider: .shared(group),
            logger: Self.quieter(logger))
        services = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let services = services, finished = finished
        Task.detached {
            do {
                try await services.run()
            } catch {
                logger.error("remote: cannot serve on \(where_) (remote.listen): \(Self.describe(error)); the kiosk goes on without remote access")
            }
            finished.signal()
        }
    }

    /// Lowers the calling thread's priority: the event loop's once, the task threads' at each request
    /// (they are Swift's shared pool; nothing else in vitrine runs on it).
    static func yieldToTheFrameLoop() {
        try? ThreadPriority.setCurrentThreadNice(nice)
    }

    /// Hummingbird's own lines ("Server started...", one per request at debug) only at debug:
    /// at info the kiosk's log says the same in its own words.
    private static func quieter(_ logger: Logger) -> Logger {
        var quieter = logger
        if quieter.logLevel == .info { quieter.logLevel = .notice }
        return quieter
    }

    /// NIO's "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)" as "bind: Address
    /// already in use (errno 98)".
    static func describe(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        let call = error.description.prefix { $0 != "(" && $0 != ":" }
        return "\(call): \(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))"
    }

    /// The port it listens on, once it does.
    public var port: Int? { boundPort.withLockedValue { $0 } }

    /// Stops accepting, lets the requests in flight finish (2 s at most) and joins its thread.
    public func stop() {
        let services = services
        Task.detached { await services.triggerGracefulShutdown() }
        if finished.wait(timeout: .now() + 2) == .timedOut {
            // A client still holding a request: the process is about to exit anyway.
            return
        }
        try? group.syncShutdownGracefully()
    }
}
