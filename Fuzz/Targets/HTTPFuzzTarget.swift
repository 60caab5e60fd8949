import Glibc
import Linux
import RemoteControl
import RemoteHTTP

/// The `http` fuzz target: the bytes as what one client sent on one connection to the remote
/// server, through the server's own request path (`RemoteExchange`: NIO's HTTP/1 decoder with the
/// server's limits, the HTTP/1.0 and deadline handlers, `RemoteResponder`'s routes, the token
/// check and the remote action's JSON). The token file holds `fuzz-token`; the kiosk shows 5 photos.
public enum HTTPFuzzTarget {
    /// The token that opens /screenshot and /control (in the dictionary and the seeds).
    public static let token = "fuzz-token"

    private static let exchange: RemoteExchange = {
        let tokenFile = "/tmp/vitrine-fuzz-http-\(getpid()).token"
        do {
            try AtomicFile.write(Array((token + "\n").utf8), to: tokenFile)
        } catch {
            fatalError("http fuzz target: cannot write its token file: \(error)")
        }
        let state = RemoteState(version: "fuzz", wake: {})
        var snapshot = state.currentSnapshot()
        snapshot.state = .showing
        snapshot.photoCount = 5
        state.publish(snapshot)
        return RemoteExchange(state: state, tokenFile: tokenFile)
    }()

    public static func run(_ bytes: UnsafeRawBufferPointer) -> RemoteExchange.Outcome {
        do {
            return try exchange.answer(Array(bytes))
        } catch {
            // The embedded channel itself refused (a bug of the harness, not of the input).
            fatalError("http fuzz target: \(error)")
        }
    }
}
